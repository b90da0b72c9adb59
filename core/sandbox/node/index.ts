/** Sandboxes in worker threads, for the server: a stuck script costs a worker, never the process. */
import { Worker } from 'node:worker_threads'
import { createPool, type PoolOptions, type ScriptPool } from '../src/pool.ts'

export type { PoolOptions, PoolStats, ScriptPool } from '../src/pool.ts'

export function createSandboxPool(options: PoolOptions = {}): ScriptPool {
  return createPool((events) => {
    // Workers inherit execArgv, so `--import @poppinss/ts-exec` loads this TypeScript file too.
    const worker = new Worker(new URL('./worker.ts', import.meta.url))
    worker.on('message', events.message)
    worker.on('error', (error) => events.gone(error.message))
    worker.on('exit', (code) => events.gone(`exit code ${code}`))
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => void worker.terminate(),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
    }
  }, options)
}
