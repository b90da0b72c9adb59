import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

/**
 * One piece of work on a user's file (a Word fill, the ID card's PDF, a PDF's page count, a merge, an
 * OCR run's page split) in a worker thread of its own, with a heap limit and a time limit (issue 17):
 * however the file makes it behave, the server's event loop goes on answering, and past either limit
 * the worker is stopped and the caller told why. The core's and the plugins' workers share this
 * (`@tramita/plugin-api/workers`). ArrayBuffers live outside the heap limit: the upload checks
 * (uploads/archive.ts) and pdf-lib's decode limits (./pdf_limits.ts) bound those.
 */

const TS_LOADER = '@tramita/ts-run'

/**
 * Our workers are TypeScript (the sandbox's, the Word fill's, the ID card's, the PDF workers). `tramita
 * serve` registers ts-run in code (cli/bin/tramita.js), which workers do not inherit, and Node's own
 * type stripping cannot load it: every worker died before it was ready and every script failed. Workers
 * get the loader explicitly unless `--import` has it (only the loader: the parent's other options may
 * be process-wide ones a worker refuses, like --eval).
 */
export function workerExecArgv(): string[] | undefined {
  return process.execArgv.some((arg) => arg.includes(TS_LOADER)) ? undefined : ['--import', TS_LOADER]
}

/** The worker ran out of time or memory, or failed (threw, or ended), before it answered. */
export class WorkerLimit extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'failed',
    detail = ''
  ) {
    super(detail || reason)
  }
}

export interface WorkerLimits {
  heapMb: number
  timeoutMs: number
}

/**
 * Workers that run at once in this process; the others wait for a slot. Each may hold hundreds of MB
 * outside its heap limit (measured: one ID card with a 16 MP PNG face, about 300 MB), and more workers
 * than cores add memory, not speed: before, nothing bounded how many ran at once.
 */
export const WORKER_SLOTS = Math.max(2, availableParallelism())
let running = 0
const queued: (() => void)[] = []

/** Workers running, and calls waiting for a slot (tests and diagnostics). */
export function workerLoad(): { running: number; waiting: number } {
  return { running, waiting: queued.length }
}

function takeSlot(): Promise<void> {
  if (running < WORKER_SLOTS) {
    running++
    return Promise.resolve()
  }
  return new Promise((resolve) => queued.push(resolve))
}

/** The slot goes straight to the next caller waiting, if any. */
function giveSlot(): void {
  const next = queued.shift()
  if (next) next()
  else running--
}

/**
 * Runs the worker script with `data` as its workerData, once a slot is free (WORKER_SLOTS); resolves
 * with the first message it posts. The time limit counts from the worker's start, not the wait.
 * `transferList`: buffers in `data` moved to the worker instead of copied (the caller no longer reads them).
 */
export async function runBounded<T>(
  script: URL,
  data: unknown,
  limits: WorkerLimits,
  transferList?: ArrayBuffer[]
): Promise<T> {
  await takeSlot()
  try {
    return await runWorker<T>(script, data, limits, transferList)
  } finally {
    giveSlot()
  }
}

function runWorker<T>(script: URL, data: unknown, limits: WorkerLimits, transferList?: ArrayBuffer[]): Promise<T> {
  const worker = new Worker(script, {
    workerData: data,
    transferList,
    execArgv: workerExecArgv(),
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32 },
    stdout: false,
  })
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const settle = (error: WorkerLimit | null, answer?: T) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      if (error) reject(error)
      else resolve(answer!)
    }
    const timer = setTimeout(() => settle(new WorkerLimit('timeout')), limits.timeoutMs)
    worker.on('message', (answer: T) => settle(null, answer))
    worker.on('error', (error: NodeJS.ErrnoException) =>
      settle(new WorkerLimit(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed', error.message))
    )
    worker.on('exit', (code) => settle(new WorkerLimit('failed', `the worker exited (${code}) without an answer`)))
  })
}
