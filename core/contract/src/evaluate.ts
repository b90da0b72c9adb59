/**
 * Runs a form's conditions and formulas in the sandbox: formulas level by level (one crossing per
 * level), then every condition in one crossing. An error in a condition counts as false (spec) and is
 * reported for the designer, never thrown at the end user.
 */
import type { Json, ScriptResult, ScriptRunner } from '@tramita/sandbox'
import { buildGraph, type FormScript } from './graph.js'
import type { FormConfig } from './config.js'
import type { InitialState } from './initial.js'

export interface EvaluationContext {
  runner: ScriptRunner
  /** Process and URL variables (code_process, gnrl_id, id_process, this_id, ...); fields win on a clash. */
  vars?: Record<string, Json>
  timeoutMs?: number
}

export interface ScriptFailure {
  field: string
  kind: FormScript['kind']
  code: string
  message: string
}

export interface Evaluation {
  values: Record<string, unknown>
  conditions: Map<string, boolean>
  failures: ScriptFailure[]
  /** How many scripts ran (for the runtime's accounting and the benchmark). */
  ran: number
}

/** A script that reads a field by a computed name (`value(x)`) may read any of them. */
const READS_BY_NAME = /\bvalue\s*\(/

/**
 * Only the variables the batch's scripts read cross into the sandbox: each one becomes a QuickJS value,
 * and a 500-field form would otherwise pay for 500 of them on every keystroke and every save. Fields
 * win over process variables of the same name; the two are merged only for a script reading by name.
 */
function variablesFor(
  batch: readonly FormScript[],
  fields: Record<string, Json>,
  vars: Record<string, Json> = {}
): Record<string, Json> {
  if (batch.some((s) => READS_BY_NAME.test(s.source))) return { ...vars, ...fields }
  const out: Record<string, Json> = {}
  for (const script of batch) {
    for (const name of script.deps) {
      if (name in fields) out[name] = fields[name]!
      else if (name in vars) out[name] = vars[name]!
    }
  }
  return out
}

/** Runs `scripts` (formulas first, in level order, then conditions) over `values`. */
export async function runScripts(
  scripts: readonly FormScript[],
  values: Record<string, unknown>,
  ctx: EvaluationContext,
  levelOf: (script: FormScript) => number = () => 0
): Promise<Evaluation> {
  const current = { ...values }
  const conditions = new Map<string, boolean>()
  const failures: ScriptFailure[] = []
  const formulas = scripts.filter((s) => s.kind === 'formula')
  const levels = new Map<number, FormScript[]>()
  for (const f of formulas) levels.set(levelOf(f), [...(levels.get(levelOf(f)) ?? []), f])
  const run = (batch: FormScript[]) =>
    ctx.runner.runBatch(
      batch.map((s) => ({ source: s.source })),
      variablesFor(batch, current as Record<string, Json>, ctx.vars),
      { timeoutMs: ctx.timeoutMs }
    )
  const fail = (s: FormScript, result: ScriptResult) =>
    !result.ok && failures.push({ field: s.field, kind: s.kind, ...result.error })

  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    const batch = levels.get(level)!
    const results = await run(batch)
    batch.forEach((s, i) => {
      const result = results[i]!
      if (result.ok) current[s.field] = result.value
      else fail(s, result)
    })
  }
  const checks = scripts.filter((s) => s.kind === 'condition')
  if (checks.length > 0) {
    const results = await run(checks)
    checks.forEach((s, i) => {
      const result = results[i]!
      conditions.set(s.field, result.ok ? Boolean(result.value) : false)
      fail(s, result)
    })
  }
  return { values: current, conditions, failures, ran: scripts.length }
}

/** Every formula and condition of the form. */
export function evaluateForm(config: FormConfig, values: Record<string, unknown>, ctx: EvaluationContext) {
  const graph = buildGraph(config)
  return runScripts([...graph.formulaLevels.flat(), ...graph.conditions], values, ctx, (s) => graph.levelOf(s.field))
}

/** The first evaluation of an opened form, as the server sends it with the form's info: conditions, formula results. */
export async function initialState(
  config: FormConfig,
  values: Record<string, unknown>,
  ctx: EvaluationContext
): Promise<InitialState> {
  const evaluation = await evaluateForm(config, values, ctx)
  const computed: Record<string, Json> = {}
  for (const item of config.fields) {
    const name = item.field_name
    if (item.data.formule && name in evaluation.values) computed[name] = evaluation.values[name] as Json
  }
  return { conditions: Object.fromEntries(evaluation.conditions), values: computed }
}

/** Only what reads `field` (directly or through formulas): what the runtime runs after a change. */
export function evaluateChange(
  config: FormConfig,
  field: string,
  values: Record<string, unknown>,
  ctx: EvaluationContext
) {
  const graph = buildGraph(config)
  return runScripts(graph.affectedBy(field), values, ctx, (s) => graph.levelOf(s.field))
}
