import { Worker } from 'node:worker_threads'

/** A worker's limits: past them it is stopped. */
export interface WorkerLimits {
  heapMb: number
  timeoutMs: number
}

/** The worker ran out of time or memory, or crashed, before it answered. */
export class WorkerFailed extends Error {
  constructor(readonly reason: 'timeout' | 'crashed') {
    super(`PDF worker ${reason}`)
  }
}

const TS_LOADER = '@tramita/ts-run'

/**
 * Runs a worker-thread script (pdf-lib work on untrusted PDFs) with heap and time limits and resolves
 * with its first message: a large or hostile PDF makes that thread slow or out of memory, never the
 * server's event loop.
 */
export function runWorker<T>(
  script: URL,
  workerData: unknown,
  limits: WorkerLimits,
  /** Buffers in workerData moved to the worker instead of copied (the caller no longer reads them). */
  transferList?: ArrayBuffer[]
): Promise<T> {
  const worker = new Worker(script, {
    workerData,
    transferList,
    // Workers do not inherit a loader registered in code: give them ts-run unless --import has it.
    execArgv: process.execArgv.some((arg) => arg.includes(TS_LOADER)) ? undefined : ['--import', TS_LOADER],
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32 },
    stdout: false,
  })
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (error: Error | null, answer?: T) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      if (error) reject(error)
      else resolve(answer as T)
    }
    const timer = setTimeout(() => settle(new WorkerFailed('timeout')), limits.timeoutMs)
    worker.on('message', (answer: T) => settle(null, answer))
    worker.on('error', () => settle(new WorkerFailed('crashed')))
    worker.on('exit', () => settle(new WorkerFailed('crashed')))
  })
}
