/**
 * A ScriptRunner that evaluates the scripts an interpreter takes (pure expressions, evaluated on the
 * calling thread with no eval) at once, and hands the rest to QuickJS, loaded the first time a script
 * needs it. A form whose conditions and formulas are all expressions never loads QuickJS; one with a
 * real script loads it on its first batch (or earlier, through `warm`). Results keep the calls' order.
 */
import { keptFor } from './cache.ts'
import type { Json, RunOptions, ScriptCall, ScriptResult, ScriptRunner } from './types.ts'

/**
 * What the interpreter makes of a source: a compiled expression, or why it leaves it to QuickJS. A run
 * answers null when QuickJS is to answer that call (an error QuickJS words, a value outside the subset).
 */
export type Compiled = { run(vars: Record<string, Json>): ScriptResult | null } | { refused: string }

export interface HybridRunner extends ScriptRunner {
  /** Whether any of these sources needs QuickJS (the interpreter refuses it). */
  needsQuickJS(sources: Iterable<string>): boolean
  /** Starts loading QuickJS now, without waiting for a script that needs it. */
  warm(): void
  /** Calls the interpreter answered, and calls sent to QuickJS, so far. */
  readonly counts: { interpreted: number; quickjs: number }
}

/** Compiled sources are kept: a form's scripts are few and run on every change. */
const CACHE_LIMIT = 2000

/** A call's own variables over the shared ones, as the sandbox looks them up (an undefined own one is absent). */
function merged(shared: Record<string, Json>, own: Record<string, Json>): Record<string, Json> {
  const out = { ...shared }
  for (const [name, value] of Object.entries(own)) if (value !== undefined) out[name] = value
  return out
}

export function createHybridRunner(
  compile: (source: string) => Compiled,
  load: () => Promise<ScriptRunner>
): HybridRunner {
  const compiled = keptFor(CACHE_LIMIT, compile)
  let quickjs: Promise<ScriptRunner> | undefined
  const counts = { interpreted: 0, quickjs: 0 }

  const loaded = () => (quickjs ??= load())

  async function runBatch(calls: ScriptCall[], shared: Record<string, Json> = {}, opts?: RunOptions) {
    const results: ScriptResult[] = new Array(calls.length)
    const rest: number[] = []
    calls.forEach((call, i) => {
      const entry = compiled(call.source)
      const answer = 'refused' in entry ? null : entry.run(call.vars ? merged(shared, call.vars) : shared)
      if (answer) results[i] = answer
      else rest.push(i)
    })
    counts.interpreted += calls.length - rest.length
    if (rest.length > 0) {
      counts.quickjs += rest.length
      const answers = await (
        await loaded()
      ).runBatch(
        rest.map((i) => calls[i]!),
        shared,
        opts
      )
      rest.forEach((i, k) => (results[i] = answers[k]!))
    }
    return results
  }

  return {
    counts,
    runBatch,
    run: async (source, vars, opts) => (await runBatch([{ source, vars }], {}, opts))[0]!,
    needsQuickJS: (sources) => [...sources].some((source) => 'refused' in compiled(source)),
    warm: () => void loaded(),
    async dispose() {
      if (quickjs) await (await quickjs).dispose()
    },
  }
}
