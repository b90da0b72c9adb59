/** Sandboxes in worker threads, for the server: a stuck script costs a worker, never the process. */
import { Worker } from 'node:worker_threads'
import { createPool, type PoolOptions, type ScriptPool } from '../src/pool.ts'

export type { PoolOptions, PoolStats, ScriptPool } from '../src/pool.ts'

export interface NodePoolOptions extends PoolOptions {
  /**
   * The workers' Node options (default: the parent's). Workers inherit `--import` flags but not
   * loader hooks registered in code, so a host that imports its TypeScript loader passes it here.
   */
  execArgv?: string[]
}

export function createSandboxPool(options: NodePoolOptions = {}): ScriptPool {
  const { execArgv, ...poolOptions } = options
  return createPool((events) => {
    // With `--import @tramita/ts-run` inherited (or given in execArgv), this TypeScript file loads.
    const worker = new Worker(new URL('./worker.ts', import.meta.url), execArgv ? { execArgv } : undefined)
    worker.on('message', events.message)
    worker.on('error', (error) => events.gone(error.message))
    worker.on('exit', (code) => events.gone(`exit code ${code}`))
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => void worker.terminate(),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
    }
  }, poolOptions)
}
