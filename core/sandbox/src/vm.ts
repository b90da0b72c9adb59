/**
 * One QuickJS runtime and context with the kernel installed: limits, the deadline, the host bridge,
 * and the crossing that runs a batch. Every handle it takes is counted and disposed.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core'
import type { ScriptErrorCode } from './types.ts'
import { KERNEL_SOURCE } from './kernel.ts'
import { MESSAGES } from './errors.ts'

export interface VmOptions {
  memoryLimitBytes: number
  stackLimitBytes: number
  hostNames: readonly string[]
  bridge: (name: string, args: string) => string
  /** The scripts' time limit: setting the runtime up (and winding a batch down) gets at least as long. */
  timeoutMs?: number
}

/** A batch either finished (its results' JSON) or was stopped by the runtime (the finished part). */
export type Outcome =
  | { done: true; json: string }
  | { done: false; code: ScriptErrorCode; message: string; partial: string; recycle: boolean }

/** The least time given to setting a runtime up or winding a batch down (a slow build or a busy machine). */
const SETUP_MS = 2000

export class Vm {
  /** The running batch's deadline (ms since epoch), read by the interrupt handler. */
  deadline = 0
  handles = 0
  /** Batches this runtime has run. */
  batches = 0
  private readonly runtime: QuickJSRuntime
  private readonly context: QuickJSContext
  private readonly start: QuickJSHandle
  private readonly resume: QuickJSHandle
  private readonly abort: QuickJSHandle
  private readonly setupMs: number

  constructor(module: QuickJSWASMModule, options: VmOptions) {
    this.runtime = module.newRuntime()
    this.runtime.setMemoryLimit(options.memoryLimitBytes)
    this.runtime.setMaxStackSize(options.stackLimitBytes)
    this.runtime.setInterruptHandler(() => Date.now() > this.deadline)
    this.context = this.runtime.newContext()
    this.setupMs = Math.max(SETUP_MS, options.timeoutMs ?? 0)
    this.deadline = Date.now() + this.setupMs
    const ctx = this.context
    const temporary: QuickJSHandle[] = []
    const keep = (h: QuickJSHandle) => (temporary.push(h), this.take(h))
    try {
      const bridge = keep(
        ctx.newFunction('hostCall', (name, args) =>
          ctx.newString(options.bridge(ctx.getString(name), ctx.getString(args)))
        )
      )
      const names = keep(this.unwrap(ctx.evalCode(`(${JSON.stringify(options.hostNames)})`)))
      const factory = keep(this.unwrap(ctx.evalCode(KERNEL_SOURCE, 'kernel.js')))
      const kernel = keep(this.unwrap(ctx.callFunction(factory, ctx.undefined, bridge, names)))
      this.start = this.take(ctx.getProp(kernel, 'start'))
      this.resume = this.take(ctx.getProp(kernel, 'resume'))
      this.abort = this.take(ctx.getProp(kernel, 'abort'))
    } finally {
      for (const h of temporary) this.drop(h)
    }
  }

  /** Runs one batch. Throws only when the wasm module itself failed (a trap or an abort). */
  run(input: string, deadline: number): Outcome {
    const ctx = this.context
    this.deadline = deadline
    const arg = this.take(ctx.newString(input))
    let result = ctx.callFunction(this.start, ctx.undefined, arg)
    this.drop(arg)
    for (;;) {
      if (result.error) return this.stopped(this.take(result.error))
      const value = this.take(result.value)
      const text = ctx.getString(value)
      this.drop(value)
      if (text !== '') return { done: true, json: text }
      // The current call returned a promise: run its jobs, then let the kernel look at it.
      const jobs = this.runtime.executePendingJobs(-1)
      if (jobs.error) return this.stopped(this.take(jobs.error))
      // An interrupted async function rejects its promise instead of throwing: go by the clock.
      if (Date.now() > this.deadline) return this.halt('SCRIPT_TIMEOUT', MESSAGES.timeout, false)
      result = ctx.callFunction(this.resume, ctx.undefined)
    }
  }

  /** Runs jobs a script left behind (the host API refuses them); false if some could not finish. */
  drainJobs(): boolean {
    if (!this.runtime.hasPendingJob()) return true
    const jobs = this.runtime.executePendingJobs(-1)
    if (jobs.error) {
      this.drop(this.take(jobs.error))
      return false
    }
    return !this.runtime.hasPendingJob()
  }

  /** Live QuickJS objects and allocations: flat across runs unless something leaks. */
  heap(): { objects: number; allocations: number } {
    const usage = this.take(this.runtime.computeMemoryUsage())
    const u = this.context.dump(usage) as { obj_count: number; malloc_count: number }
    this.drop(usage)
    return { objects: u.obj_count, allocations: u.malloc_count }
  }

  /** Disposes the handles, then the context and runtime; may throw if QuickJS aborts. */
  dispose(): void {
    for (const h of [this.start, this.resume, this.abort]) if (h.alive) this.drop(h)
    this.context.dispose()
    this.runtime.dispose()
  }

  private stopped(error: QuickJSHandle): Outcome {
    const { name, message } = this.describe(error)
    this.drop(error)
    if (message === 'interrupted') return this.halt('SCRIPT_TIMEOUT', MESSAGES.timeout, false)
    if (message === 'out of memory') return this.halt('SCRIPT_MEMORY', MESSAGES.memory, true)
    if (message === 'stack overflow') return this.halt('SCRIPT_ERROR', MESSAGES.stack, true)
    return this.halt('SCRIPT_ERROR', `${name}: ${message}`, true)
  }

  /** Ends a batch the kernel did not finish: what it had finished, and why the rest failed. */
  private halt(code: ScriptErrorCode, message: string, recycle: boolean): Outcome {
    this.deadline = Date.now() + this.setupMs
    const aborted = this.context.callFunction(this.abort, this.context.undefined)
    let partial = '[]'
    if (aborted.error) this.drop(this.take(aborted.error))
    else {
      const value = this.take(aborted.value)
      partial = this.context.getString(value)
      this.drop(value)
    }
    return { done: false, code, message, partial, recycle }
  }

  private describe(error: QuickJSHandle): { name: string; message: string } {
    try {
      const e = this.context.dump(error) as { name?: unknown; message?: unknown } | null
      return { name: String(e?.name ?? 'Error'), message: String(e?.message ?? e) }
    } catch {
      return { name: 'Error', message: 'unknown error' }
    }
  }

  private unwrap(result: { error?: QuickJSHandle; value?: QuickJSHandle }): QuickJSHandle {
    if (result.error) {
      const { name, message } = this.describe(result.error)
      result.error.dispose()
      throw new Error(`sandbox setup failed: ${name}: ${message}`)
    }
    return result.value!
  }

  private take(handle: QuickJSHandle): QuickJSHandle {
    this.handles++
    return handle
  }

  private drop(handle: QuickJSHandle): void {
    this.handles--
    handle.dispose()
  }
}
