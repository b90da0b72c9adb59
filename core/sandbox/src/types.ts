/** The sandbox's public types: what goes in (JSON), what comes out (a value and effects, or an error). */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/**
 * SANDBOX_UNAVAILABLE is the host's failure, not the script's: no sandbox could be built or started.
 * A result computed without scripts is not a result, so callers refuse instead of going on.
 */
export type ScriptErrorCode = 'SCRIPT_TIMEOUT' | 'SCRIPT_MEMORY' | 'SCRIPT_ERROR' | 'SANDBOX_UNAVAILABLE'

export interface ScriptError {
  code: ScriptErrorCode
  message: string
}

export interface FieldState {
  natural?: 'enabled' | 'disabled' | 'readonly'
  see?: boolean
  show?: boolean
  required?: boolean
}

/** What a script asked the form to do, in call order; recorded in the sandbox, applied by the host. */
export type Effect =
  | { op: 'setValue'; field: string; value: Json }
  | { op: 'setState'; field: string; state: FieldState }
  | { op: 'setOptions'; field: string; options: Json }
  | { op: 'setStyle'; field: string; style: Json }

export type ScriptResult = { ok: true; value: Json; effects: Effect[] } | { ok: false; error: ScriptError }

export interface ScriptCall {
  source: string
  vars?: Record<string, Json>
}

export interface RunOptions {
  /** Deadline for the whole call; a batch shares one deadline. */
  timeoutMs?: number
}

export interface SandboxStats {
  /** Scripts compiled inside QuickJS (a cached script is compiled once per runtime). */
  compiled: number
  /** Scripts evaluated. */
  runs: number
  /** QuickJS handles the sandbox holds right now (constant between calls: anything more is a leak). */
  liveHandles: number
  /** Runtimes thrown away and rebuilt (after running out of memory, a stack overflow, a wasm fault). */
  rebuilds: number
  /** Wasm faults (a trap, an abort, the host's stack exhausted): each swaps in a fresh QuickJS instance. */
  faults: number
}

export interface Sandbox {
  run(source: string, vars?: Record<string, Json>, opts?: RunOptions): ScriptResult
  /** One crossing into QuickJS evaluates every call; `shared` vars are visible to all calls, a call's own vars override them. */
  runBatch(calls: ScriptCall[], shared?: Record<string, Json>, opts?: RunOptions): ScriptResult[]
  dispose(): void
  stats(): SandboxStats
}

export type HostFunction = (...args: Json[]) => Json

export interface SandboxOptions {
  /** Heap the scripts may use, on top of the ~16 MiB QuickJS itself takes (default 32 MiB). */
  memoryLimitBytes?: number
  /** QuickJS stack (default 128 KiB; 64 KiB in a browser worker: see README for why not more). */
  stackLimitBytes?: number
  /** Default deadline of a run or batch (default 100 ms). */
  timeoutMs?: number
  /** Compiled scripts kept, least recently used dropped first (default 2000). */
  cacheSize?: number
  /** Extra host functions, JSON in and out, visible to scripts as globals. */
  host?: Record<string, HostFunction>
}

/** The async face shared by the in-process sandbox, the Node pool and the browser worker. */
export interface ScriptRunner {
  run(source: string, vars?: Record<string, Json>, opts?: RunOptions): Promise<ScriptResult>
  runBatch(calls: ScriptCall[], shared?: Record<string, Json>, opts?: RunOptions): Promise<ScriptResult[]>
  dispose(): Promise<void> | void
}
