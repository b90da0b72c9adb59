/**
 * Runs a form's conditions and formulas in the sandbox: formulas level by level (one crossing per
 * level), then every condition in one crossing. An error in a condition counts as false (spec) and is
 * reported for the designer, never thrown at the end user.
 */
import { HOST_DEPENDENT, type Json, type ScriptCall, type ScriptRunner } from '@tramita/sandbox'
import { buildGraph, sourcesOf, type FormScript, type KnownReads } from './graph.js'
import { cellKey, formulaCells } from './types/repeat.js'
import type { FormConfig } from './config.js'
import type { InitialState } from './initial.js'

export interface EvaluationContext {
  runner: ScriptRunner
  /** Process and URL variables (code_process, gnrl_id, id_process, this_id, ...); fields win on a clash. */
  vars?: Record<string, Json>
  timeoutMs?: number
  /** The scripts' reads as the server's graph found them (InitialState.reads): the graph then parses none. */
  known?: KnownReads
}

export interface ScriptFailure {
  field: string
  kind: FormScript['kind']
  code: string
  message: string
}

export interface Evaluation {
  values: Record<string, unknown>
  /** By item name; a repeating group's cells by cellKey (`group.row.cell`), one per row. */
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
  if (batch.some((s) => sourcesOf(s).some((source) => READS_BY_NAME.test(source)))) return { ...vars, ...fields }
  const out: Record<string, Json> = {}
  for (const script of batch) {
    for (const name of script.deps) {
      if (name in fields) out[name] = fields[name]!
      else if (name in vars) out[name] = vars[name]!
    }
  }
  return out
}

type CellCall = ScriptCall & { key: string; row: number; cell: string }

/**
 * One call per row and cell of a group's cell script (of one wave, for formulas), with `row` the
 * row's values (defaults for left-out cells).
 */
function cellCalls(script: FormScript, rows: unknown, wave?: number): CellCall[] {
  if (!Array.isArray(rows)) return []
  return rows.flatMap((entry, index) => {
    const given = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {}
    const row: Record<string, Json> = { ...script.emptyRow }
    for (const [name, value] of Object.entries(given))
      if (value !== undefined && value !== null) row[name] = value as Json
    return script
      .cells!.filter((c) => wave === undefined || c.wave === wave)
      .map(({ cell, source }) => ({
        source,
        vars: { row },
        key: cellKey(script.field, index, cell),
        row: index,
        cell,
      }))
  })
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
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    const batch = levels.get(level)!
    // A group's cell formulas run once per row, in the same crossing as the level's other formulas; a
    // cell reading another computed cell of its row waits for that one's wave (graph.ts).
    const waves = Math.max(0, ...batch.flatMap((s) => (s.cells ?? []).map((c) => c.wave))) + 1
    for (let wave = 0; wave < waves; wave++) {
      const calls: ScriptCall[][] = batch.map((s) =>
        s.cells ? cellCalls(s, current[s.field], wave) : wave === 0 ? [{ source: s.source }] : []
      )
      if (calls.every((c) => c.length === 0)) continue
      const results = await ctx.runner.runBatch(
        calls.flat().map(({ source, vars }) => (vars ? { source, vars } : { source })),
        variablesFor(batch, current as Record<string, Json>, ctx.vars),
        { timeoutMs: ctx.timeoutMs }
      )
      let at = 0
      batch.forEach((s, i) => {
        if (calls[i]!.length === 0) return
        const answers = results.slice(at, (at += calls[i]!.length))
        if (!s.cells) {
          const result = answers[0]!
          if (result.ok) current[s.field] = result.value
          else failures.push({ field: s.field, kind: s.kind, ...result.error })
          return
        }
        // The rows with each computed cell set; a failed one keeps what was entered.
        if (!Array.isArray(current[s.field])) return
        const rows = [...(current[s.field] as Record<string, unknown>[])]
        ;(calls[i] as CellCall[]).forEach(({ key, row, cell }, k) => {
          const result = answers[k]!
          if (result.ok) rows[row] = { ...rows[row], [cell]: result.value }
          else failures.push({ field: key, kind: 'formula', ...result.error })
        })
        current[s.field] = rows
      })
    }
  }
  // Conditions, and each group's cell conditions once per row, in one crossing.
  const checks = scripts.filter((s) => s.kind !== 'formula')
  const calls: (ScriptCall & { key: string })[] = []
  for (const s of checks) {
    if (s.kind === 'condition') calls.push({ source: s.source, key: s.field })
    else calls.push(...cellCalls(s, current[s.field]))
  }
  if (calls.length > 0) {
    const results = await ctx.runner.runBatch(
      calls.map(({ source, vars }) => (vars ? { source, vars } : { source })),
      variablesFor(checks, current as Record<string, Json>, ctx.vars),
      { timeoutMs: ctx.timeoutMs }
    )
    calls.forEach(({ key }, i) => {
      const result = results[i]!
      conditions.set(key, result.ok ? Boolean(result.value) : false)
      if (!result.ok) failures.push({ field: key, kind: 'condition', ...result.error })
    })
  }
  return { values: current, conditions, failures, ran: scripts.length }
}

/** Every formula and condition of the form. */
export function evaluateForm(config: FormConfig, values: Record<string, unknown>, ctx: EvaluationContext) {
  const graph = buildGraph(config, ctx.known)
  return runScripts([...graph.formulaLevels.flat(), ...graph.conditions], values, ctx, (s) => graph.levelOf(s.field))
}

/**
 * The first evaluation of an opened form, as the server sends it with the form's info: conditions,
 * formula results, and when the browser's would be the same, `settled` and each script's reads.
 */
export async function initialState(
  config: FormConfig,
  values: Record<string, unknown>,
  ctx: EvaluationContext
): Promise<InitialState> {
  const evaluation = await evaluateForm(config, values, ctx)
  const computed: Record<string, Json> = {}
  for (const item of config.fields) {
    const name = item.field_name
    const computes = item.data.formule || formulaCells(item).length > 0
    if (computes && name in evaluation.values) computed[name] = evaluation.values[name] as Json
  }
  const state: InitialState = { conditions: Object.fromEntries(evaluation.conditions), values: computed }
  const graph = buildGraph(config)
  const dependent = graph.scripts.some((s) => sourcesOf(s).some((source) => ENGINE_DEPENDENT.test(source)))
  if (evaluation.failures.length > 0 || dependent) return state
  return { ...state, settled: true, reads: Object.fromEntries(graph.scripts.map((s) => [s.id, s.deps])) }
}

/** A call the server and a browser may answer differently (a word of it in a string only costs the shortcut). */
const ENGINE_DEPENDENT = new RegExp(`\\b(?:${HOST_DEPENDENT.join('|')})\\b`)

/** Only what reads `field` (directly or through formulas): what the runtime runs after a change. */
export function evaluateChange(
  config: FormConfig,
  field: string,
  values: Record<string, unknown>,
  ctx: EvaluationContext
) {
  const graph = buildGraph(config, ctx.known)
  return runScripts(graph.affectedBy(field), values, ctx, (s) => graph.levelOf(s.field))
}
