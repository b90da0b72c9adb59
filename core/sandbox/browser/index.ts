/// <reference lib="dom" />
/**
 * A sandbox in a module Web Worker, so a stuck script never freezes the page: the watchdog
 * terminates the worker and starts a new one. Bundlers need `worker.format: 'es'` (Vite's default,
 * 'iife', cannot hold QuickJS's lazily loaded chunk).
 */
import { createPool, type PoolOptions, type ScriptPool } from '../src/pool.ts'

export type { PoolStats, ScriptPool } from '../src/pool.ts'
export type WorkerSandboxOptions = Omit<PoolOptions, 'size'>

/** Chromium's workers have about half the native stack of its pages: from ~128 KiB QuickJS exhausts it. */
const WORKER_STACK_BYTES = 64 * 1024

export function createWorkerSandbox(options: WorkerSandboxOptions = {}): ScriptPool {
  return createPool(
    (events) => {
      const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
      worker.onmessage = (event) => events.message(event.data)
      worker.onerror = (event) => {
        event.preventDefault()
        events.gone(event.message || 'the worker failed to load')
      }
      return { post: (message) => worker.postMessage(message), terminate: () => worker.terminate() }
    },
    { ...options, stackLimitBytes: options.stackLimitBytes ?? WORKER_STACK_BYTES, size: 1 }
  )
}
