/** The worker side of the pool: builds a sandbox from the init message and answers batches. */
import type { HostFunction, Json, RunOptions, Sandbox, SandboxOptions, ScriptCall, ScriptResult } from './types.ts'
import { createSandbox } from './sandbox.ts'

export interface WorkerInit {
  type: 'init'
  options: Omit<SandboxOptions, 'host'>
  hostModule?: string
}

export type ToWorker =
  WorkerInit | { type: 'batch'; id: number; calls: ScriptCall[]; shared?: Record<string, Json>; opts?: RunOptions }

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  /** `faults`: the worker's sandbox's wasm faults so far (see SandboxStats). */
  | { type: 'results'; id: number; results: ScriptResult[]; faults: number }

export function serveSandbox(post: (message: FromWorker) => void): (message: ToWorker) => Promise<void> {
  let sandbox: Sandbox | undefined
  return async (message) => {
    if (message.type === 'init') {
      try {
        const host = message.hostModule
          ? ((await import(/* @vite-ignore */ message.hostModule)) as { default: Record<string, HostFunction> }).default
          : undefined
        sandbox = await createSandbox({ ...message.options, host })
        post({ type: 'ready' })
      } catch (error) {
        post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
      }
      return
    }
    const results = sandbox!.runBatch(message.calls, message.shared, message.opts)
    post({ type: 'results', id: message.id, results, faults: sandbox!.stats().faults })
  }
}
