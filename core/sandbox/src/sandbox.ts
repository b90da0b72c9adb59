/**
 * The in-process sandbox: a prepared-script cache, one reused QuickJS runtime (rebuilt lazily after
 * running out of memory or a stack overflow) and recovery from wasm faults, after which a spare
 * QuickJS instance takes over synchronously so the next run still works.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten-core'
import type { Json, RunOptions, Sandbox, SandboxOptions, SandboxStats, ScriptCall, ScriptResult } from './types.ts'
import { prepareScript, wrapScript } from './analyze.ts'
import { ScriptCache, type CacheEntry } from './cache.ts'
import { DEFAULTS } from './defaults.ts'
import { failure, MESSAGES } from './errors.ts'
import { checkHostNames, hostBridge } from './host-api.ts'
import { Vm, type Outcome } from './vm.ts'
import { loadQuickJS } from './wasm.ts'

export function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandboxWith(options)
}

const MAX_STACK_BYTES = 4 * 1024 * 1024
const MAX_TAINTED_FAULTS = 2

export type LoadQuickJS = (memoryLimitBytes: number) => Promise<QuickJSWASMModule>

export interface InspectableSandbox extends Sandbox {
  /** The current runtime's live objects and allocations: flat across runs unless something leaks. */
  heap(): { objects: number; allocations: number } | undefined
}

/** `load` supplies the QuickJS instances (tests pass the debug build's, which checks for leaks). */
export async function createSandboxWith(
  options: SandboxOptions,
  load: LoadQuickJS = loadQuickJS
): Promise<InspectableSandbox> {
  const settings = { ...DEFAULTS, ...withoutUndefined(options) }
  if (!(settings.stackLimitBytes > 0 && settings.stackLimitBytes <= MAX_STACK_BYTES)) {
    throw new RangeError(`stackLimitBytes must be between 1 and ${MAX_STACK_BYTES} (QuickJS's C stack is 5 MiB)`)
  }
  if (!(settings.memoryLimitBytes > 0 && settings.cacheSize > 0 && settings.timeoutMs > 0)) {
    throw new RangeError('memoryLimitBytes, cacheSize and timeoutMs must be positive')
  }
  const hostNames = checkHostNames(options.host)
  const vmOptions = { ...settings, hostNames, bridge: hostBridge(options.host) }
  const loadOne = () => load(settings.memoryLimitBytes)
  let [module, spare]: [QuickJSWASMModule, QuickJSWASMModule | null] = await Promise.all([loadOne(), loadOne()])
  let vm: Vm | null = null
  let generation = 0
  let disposed = false
  /** Faults the current instance took while no spare was ready to replace it. */
  let tainted = 0
  let loadingSpare = false
  const cache = new ScriptCache(settings.cacheSize, (source) => prepareScript(source, hostNames))
  const counts = { compiled: 0, runs: 0, rebuilds: 0, faults: 0 }

  function currentVm(): Vm {
    if (!vm) {
      if (tainted > 0 && spare) swapInSpare()
      // A faulted instance is used again only briefly: its wasm stack pointer may not have unwound.
      if (tainted > MAX_TAINTED_FAULTS) throw new Error(MESSAGES.restarting)
      try {
        vm = new Vm(module, vmOptions)
      } catch {
        fault() // an instance that cannot even set up a runtime is broken
        if (tainted > 0) throw new Error(MESSAGES.restarting)
        vm = new Vm(module, vmOptions)
      }
      generation++
    }
    return vm
  }

  /** Throws the runtime away; the next batch builds a new one (and recompiles what it runs). */
  function recycle(): void {
    const old = vm
    vm = null
    counts.rebuilds++
    try {
      old?.dispose()
    } catch {
      fault()
    }
  }

  /** The wasm instance trapped or aborted: never build on it again if a spare can take over. */
  function fault(): void {
    vm = null
    counts.faults++
    tainted++
    if (spare) swapInSpare()
    else loadSpare()
  }

  function swapInSpare(): void {
    module = spare!
    spare = null
    tainted = 0
    loadSpare()
  }

  function loadSpare(): void {
    if (loadingSpare || disposed) return
    loadingSpare = true
    loadOne().then(
      (m) => {
        loadingSpare = false
        if (!disposed) spare = m
      },
      () => (loadingSpare = false)
    )
  }

  function runBatch(calls: ScriptCall[], shared?: Record<string, Json>, opts?: RunOptions): ScriptResult[] {
    if (disposed) throw new Error(MESSAGES.disposed)
    const deadline = Date.now() + (opts?.timeoutMs ?? settings.timeoutMs)
    const results = new Array<ScriptResult>(calls.length)
    counts.runs += calls.length
    const reused = execute(calls, [...calls.keys()], shared, deadline, results)
    // QuickJS's cycle collector runs late in emscripten builds, so garbage earlier scripts left may
    // be what ran out: a call that did so on a used runtime gets one more try on a fresh one.
    const outOfMemory = [...calls.keys()].filter((i) => !results[i]!.ok && results[i]!.error.code === 'SCRIPT_MEMORY')
    if (reused && outOfMemory.length > 0 && Date.now() < deadline)
      execute(calls, outOfMemory, shared, deadline, results)
    return results
  }

  /** Runs `calls[i]` for each i of `which` in one crossing; true if the runtime had run batches before. */
  function execute(
    calls: ScriptCall[],
    which: number[],
    shared: Record<string, Json> | undefined,
    deadline: number,
    results: ScriptResult[]
  ): boolean {
    let machine: Vm
    try {
      machine = currentVm()
    } catch (error) {
      for (const i of which) results[i] = failure('SCRIPT_ERROR', (error as Error).message)
      return false
    }
    const reused = machine.batches++ > 0
    const compile: [number, string, string[]][] = []
    const compiledNow: CacheEntry[] = []
    const items: [number, Record<string, Json> | null][] = []
    const slots: number[] = []
    for (const i of which) {
      const { source, vars } = calls[i]!
      const entry = cache.get(source)
      const prepared = entry.prepared
      if ('error' in prepared) {
        results[i] = failure('SCRIPT_ERROR', prepared.error)
        continue
      }
      if (entry.compiledIn !== generation) {
        compile.push([entry.id, wrapScript(source, prepared.form, prepared.params), prepared.params])
        compiledNow.push(entry)
        entry.compiledIn = generation
        counts.compiled++
      }
      items.push([entry.id, vars ?? null])
      slots.push(i)
    }
    if (items.length === 0) return reused
    const input = JSON.stringify({
      d: cache.takeEvicted(generation),
      c: compile,
      s: shared ?? null,
      n: Date.now(),
      k: items,
    })

    let outcome: Outcome
    try {
      outcome = machine.run(input, deadline)
    } catch (error) {
      fault()
      const message = error instanceof RangeError ? MESSAGES.stack : MESSAGES.crashed
      for (const i of slots) results[i] = failure('SCRIPT_ERROR', message)
      return reused
    }
    const finished = JSON.parse(outcome.done ? outcome.json : outcome.partial) as ScriptResult[]
    const rest = outcome.done ? failure('SCRIPT_ERROR', MESSAGES.crashed) : failure(outcome.code, outcome.message)
    let rebuild = !outcome.done && outcome.recycle
    slots.forEach((slot, k) => {
      const r = finished[k] ?? rest
      if (!r.ok && (r.error.code === 'SCRIPT_MEMORY' || r.error.message === MESSAGES.stack)) rebuild = true
      results[slot] = r
    })
    if (!outcome.done) for (const e of compiledNow) e.compiledIn = -1 // it may have stopped mid-compile
    machine.deadline = Date.now() + settings.timeoutMs
    if (rebuild || !machine.drainJobs()) recycle()
    return reused
  }

  return {
    run: (source, vars, opts) => runBatch([{ source, vars }], undefined, opts)[0]!,
    runBatch,
    dispose() {
      if (disposed) return
      disposed = true
      try {
        vm?.dispose()
      } catch {
        counts.faults++
      }
      vm = null
      spare = null
    },
    stats: (): SandboxStats => ({ ...counts, liveHandles: vm?.handles ?? 0 }),
    heap: () => vm?.heap(),
  }
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
