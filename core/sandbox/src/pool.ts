/**
 * Sandboxes in workers, for the Node pool and the browser alike: requests wait in one queue and go
 * to an idle worker, one at a time per worker. A watchdog terminates a worker that has not answered
 * by the call's deadline plus a grace period (stuck in native code the interrupt does not reach),
 * answers that call with SCRIPT_TIMEOUT and starts a replacement.
 */
import type { Json, RunOptions, SandboxOptions, ScriptCall, ScriptResult, ScriptRunner } from './types.ts'
import { failure, MESSAGES } from './errors.ts'
import { DEFAULTS } from './defaults.ts'
import type { ToWorker, FromWorker, WorkerInit } from './serve.ts'

/** What the pool needs from a worker; `ref`/`unref` keep a Node process alive only while busy. */
export interface WorkerEndpoint {
  post(message: ToWorker): void
  terminate(): void
  ref?(): void
  unref?(): void
}

export interface WorkerEvents {
  message(message: FromWorker): void
  /** The worker failed or exited. */
  gone(reason: string): void
}

export type Spawn = (events: WorkerEvents) => WorkerEndpoint

export interface PoolOptions extends Omit<SandboxOptions, 'host'> {
  /** Workers (default 2). */
  size?: number
  /** Time past a call's deadline before the watchdog terminates its worker (default 1000 ms). */
  graceMs?: number
  /** Module whose default export is the `host` functions record, imported by each worker. */
  hostModule?: string
  /**
   * After a worker dies before it is ready, no new one starts for this long (doubling with each such
   * death, up to 30 s); calls meanwhile get SANDBOX_UNAVAILABLE at once. Default 250 ms.
   */
  restartBackoffMs?: number
  /** The clock the back-off is measured on (default Date.now; a test passes a fake one). */
  now?: () => number
}

export interface PoolStats {
  workers: number
  ready: number
  busy: number
  queued: number
  served: number
  /** Workers the watchdog terminated. */
  restarts: number
  /** Workers that failed or exited on their own. */
  crashes: number
  /** Wasm faults inside the workers' sandboxes (each recovered by swapping QuickJS instances). */
  faults: number
}

export type ScriptPool = ScriptRunner & { stats(): PoolStats }

interface Request {
  calls: ScriptCall[]
  shared?: Record<string, Json>
  opts?: RunOptions
  answer(results: ScriptResult[]): void
}

interface Slot {
  endpoint: WorkerEndpoint | null
  /** Faults its worker reported so far. */
  faults: number
  ready: boolean
  busy: Request | null
  timer: unknown
}

type Timers = {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}
// Both hosts have timers; the isomorphic build has no DOM or Node types to name them.
const timers = globalThis as unknown as Timers

export function createPool(spawn: Spawn, options: PoolOptions = {}): ScriptPool {
  const { size = 2, graceMs = 1000, hostModule, restartBackoffMs = 250, now = Date.now, ...sandboxOptions } = options
  const init: WorkerInit = { type: 'init', options: sandboxOptions, hostModule }
  const timeoutOf = (opts?: RunOptions) => opts?.timeoutMs ?? options.timeoutMs ?? DEFAULTS.timeoutMs
  const slots: Slot[] = Array.from({ length: Math.max(1, size) }, () => ({
    endpoint: null,
    faults: 0,
    ready: false,
    busy: null,
    timer: undefined,
  }))
  const queue: Request[] = []
  const counts = { served: 0, restarts: 0, crashes: 0, faults: 0 }
  let nextId = 1
  let disposed = false
  /** Workers that died before they were ready, in a row, and when the next may start. */
  let failedStarts = 0
  let coolUntil = 0

  function startFailed(): void {
    failedStarts++
    coolUntil = now() + Math.min(30_000, restartBackoffMs * 2 ** (failedStarts - 1))
  }

  function start(slot: Slot): void {
    const endpoint: WorkerEndpoint = spawn({
      message: (m) => endpoint === slot.endpoint && received(slot, m),
      gone: (reason) => endpoint === slot.endpoint && lost(slot, reason),
    })
    slot.endpoint = endpoint
    slot.ready = false
    slot.faults = 0
    endpoint.post(init)
  }

  function received(slot: Slot, m: FromWorker): void {
    if (m.type === 'ready') {
      slot.ready = true
      failedStarts = 0
    } else if (m.type === 'failed') {
      // The worker cannot build a sandbox (bad options, no wasm): waiting would not help.
      stop(slot)
      startFailed()
      for (const r of queue.splice(0)) r.answer(r.calls.map(() => failure('SANDBOX_UNAVAILABLE', m.message)))
    } else if (m.type === 'results' && slot.busy) {
      const request = slot.busy
      timers.clearTimeout(slot.timer)
      slot.busy = null
      counts.served++
      counts.faults += m.faults - slot.faults
      slot.faults = m.faults
      request.answer(m.results)
    }
    pump()
  }

  function lost(slot: Slot, reason: string): void {
    counts.crashes++
    const request = slot.busy
    const started = slot.ready
    stop(slot)
    // A worker that dies while running a script may have been killed by it; one that never got ready was not.
    const code = started ? 'SCRIPT_ERROR' : 'SANDBOX_UNAVAILABLE'
    const fail = (r: Request) => r.answer(r.calls.map(() => failure(code, `${MESSAGES.crashed}: ${reason}`)))
    if (request) fail(request)
    // A worker that dies before it is ready would die again: answer the queue instead of looping.
    if (!started) {
      startFailed()
      queue.splice(0).forEach(fail)
    }
    pump()
  }

  /** Terminates the slot's worker; a new one starts when there is work. */
  function stop(slot: Slot): void {
    timers.clearTimeout(slot.timer)
    const endpoint = slot.endpoint
    slot.endpoint = null
    slot.ready = false
    slot.busy = null
    endpoint?.terminate()
  }

  function watchdog(slot: Slot, request: Request): void {
    if (slot.busy !== request) return
    counts.restarts++
    stop(slot)
    request.answer(request.calls.map(() => failure('SCRIPT_TIMEOUT', MESSAGES.timeout)))
    if (!disposed) start(slot)
    pump()
  }

  function pump(): void {
    if (disposed) return
    // Starting workers keeps failing: start none for a while, and answer at once if none is left.
    const cooling = now() < coolUntil
    if (queue.length > 0 && cooling && !slots.some((s) => s.endpoint)) {
      for (const r of queue.splice(0)) {
        r.answer(r.calls.map(() => failure('SANDBOX_UNAVAILABLE', MESSAGES.unavailable)))
      }
      return
    }
    for (const slot of slots) {
      if (queue.length === 0) break
      if (!slot.endpoint) {
        if (cooling) continue
        start(slot)
      }
      if (!slot.ready || slot.busy) continue
      const request = queue.shift()!
      slot.busy = request
      slot.timer = timers.setTimeout(() => watchdog(slot, request), timeoutOf(request.opts) + graceMs)
      slot.endpoint!.post({
        type: 'batch',
        id: nextId++,
        calls: request.calls,
        shared: request.shared,
        opts: request.opts,
      })
    }
    // Only a worker with work to do (or to get ready for) keeps a Node process alive.
    for (const slot of slots) {
      if (slot.busy || (queue.length > 0 && !slot.ready)) slot.endpoint?.ref?.()
      else slot.endpoint?.unref?.()
    }
  }

  function runBatch(calls: ScriptCall[], shared?: Record<string, Json>, opts?: RunOptions): Promise<ScriptResult[]> {
    if (disposed) return Promise.reject(new Error(MESSAGES.disposed))
    if (calls.length === 0) return Promise.resolve([])
    return new Promise((answer) => {
      queue.push({ calls, shared, opts, answer })
      pump()
    })
  }

  return {
    runBatch,
    run: async (source, vars, opts) => (await runBatch([{ source, vars }], undefined, opts))[0]!,
    dispose() {
      if (disposed) return
      disposed = true
      const pending = [...slots.flatMap((s) => (s.busy ? [s.busy] : [])), ...queue.splice(0)]
      for (const slot of slots) stop(slot)
      for (const r of pending) r.answer(r.calls.map(() => failure('SANDBOX_UNAVAILABLE', MESSAGES.disposed)))
    },
    stats: () => ({
      workers: slots.filter((s) => s.endpoint).length,
      ready: slots.filter((s) => s.ready).length,
      busy: slots.filter((s) => s.busy).length,
      queued: queue.length,
      ...counts,
    }),
  }
}
