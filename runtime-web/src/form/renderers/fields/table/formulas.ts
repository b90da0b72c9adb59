/**
 * Formula columns and button conditions of the table (spec 000 §3 columns.formule, buttons.formule; §8):
 * each runs once per row in the form's sandbox with the row's cells as variables. A name the script
 * reads that is neither a column nor a cell of the row is reported by name (the variable-not-found
 * message) rather than passed as undefined; a script that throws, times out or does not parse fails.
 * Rows cross into QuickJS in batches, each call carrying only the cells its script reads.
 */
import { analyzeScript, type Json, type ScriptRunner } from '@tramita/sandbox'
import type { ActionContext } from '../../../store.js'
import { isComputed, type Row, type TableButtonConfig, type TableColumnConfig } from './cells.js'

export type ScriptOutcome =
  | { ok: true; value: Json }
  | { ok: false; reason: 'failed'; message: string }
  | { ok: false; reason: 'missing'; name: string }

/** Rows per crossing: big enough that 2,000 rows are a few crossings, small enough that one stays short. */
export const ROWS_PER_BATCH = 500
/** Deadline of one batch; a formula that loops ends its batch's remaining rows as failures. */
export const BATCH_TIMEOUT_MS = 400

const analyses = new Map<string, { names: string[]; error?: string }>()

/** The free names a script reads (cached: every row of a column shares one script). */
export function scriptNames(source: string): { names: string[]; error?: string } {
  let found = analyses.get(source)
  if (!found) {
    found = analyzeScript(source)
    if (analyses.size > 500) analyses.clear()
    analyses.set(source, found)
  }
  return found
}

/** A cell as a JSON variable: undefined becomes null, dates their ISO text, anything else as JSON sees it. */
function toJson(value: unknown): Json {
  if (value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'number' && !Number.isFinite(value)) return null
  if (value === null || typeof value !== 'object') return value as Json
  return JSON.parse(JSON.stringify(value)) as Json
}

/**
 * Runs `source` once per row. `known` names the table's columns: a column a row has no cell for is
 * passed as null, any other name the row lacks is "missing".
 */
export async function runPerRow(
  runner: ScriptRunner,
  source: string,
  rows: readonly Row[],
  known: ReadonlySet<string>
): Promise<ScriptOutcome[]> {
  const { names, error } = scriptNames(source)
  if (error) return rows.map(() => ({ ok: false, reason: 'failed', message: error }))
  const outcomes = new Array<ScriptOutcome>(rows.length)
  const pending: { index: number; vars: Record<string, Json> }[] = []
  rows.forEach((row, index) => {
    const missing = names.find((name) => !known.has(name) && !Object.hasOwn(row, name))
    if (missing !== undefined) {
      outcomes[index] = { ok: false, reason: 'missing', name: missing }
      return
    }
    const vars: Record<string, Json> = {}
    for (const name of names) vars[name] = toJson(row[name])
    pending.push({ index, vars })
  })
  for (let start = 0; start < pending.length; start += ROWS_PER_BATCH) {
    const batch = pending.slice(start, start + ROWS_PER_BATCH)
    let results
    try {
      results = await runner.runBatch(
        batch.map(({ vars }) => ({ source, vars })),
        undefined,
        { timeoutMs: BATCH_TIMEOUT_MS }
      )
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure)
      for (const { index } of batch) outcomes[index] = { ok: false, reason: 'failed', message }
      continue
    }
    batch.forEach(({ index }, k) => {
      const result = results[k]
      outcomes[index] =
        result && result.ok
          ? { ok: true, value: result.value }
          : { ok: false, reason: 'failed', message: result?.error.message ?? 'no result' }
    })
  }
  return outcomes
}

/** Formula results by column name, and button conditions by `column/button index`, each one per row. */
export interface TableScripts {
  formulas: Map<string, ScriptOutcome[]>
  buttons: Map<string, ScriptOutcome[]>
}

export const buttonKey = (column: string, index: number) => `${column}/${index}`

/**
 * Every formula column (in column order, so a formula may read an earlier formula column's result)
 * and every row button's condition, over all rows.
 */
export async function evaluateTable(
  runner: ScriptRunner,
  columns: readonly TableColumnConfig[],
  rows: readonly Row[]
): Promise<TableScripts> {
  const known = new Set(columns.map((c) => c.name))
  const formulas = new Map<string, ScriptOutcome[]>()
  let current: readonly Row[] = rows
  for (const column of columns) {
    if (!isComputed(column)) continue
    const outcomes = await runPerRow(runner, column.formule, current, known)
    formulas.set(column.name, outcomes)
    current = current.map((row, i) => {
      const outcome = outcomes[i]!
      return { ...row, [column.name]: outcome.ok ? outcome.value : null }
    })
  }
  const buttons = new Map<string, ScriptOutcome[]>()
  for (const column of columns) {
    if (column.type !== 'buttons') continue
    for (const [index, button] of column.buttons.entries()) {
      if (button.formule.trim() === '') continue
      buttons.set(buttonKey(column.name, index), await runPerRow(runner, button.formule, current, known))
    }
  }
  return { formulas, buttons }
}

/**
 * Whether a button's condition holds: no condition holds; otherwise only a boolean true does (a failed
 * or missing-variable evaluation counts as false, spec 000 §4, §8). Undefined while not yet evaluated.
 */
export function conditionHolds(button: TableButtonConfig, outcome: ScriptOutcome | undefined): boolean | undefined {
  if (button.formule.trim() === '') return undefined
  if (!outcome) return false
  return outcome.ok && outcome.value === true
}

/**
 * A pressed button runs its action through the form's action engine with the row it belongs to (a
 * head button with none). A button naming no action does nothing.
 */
export function runButtonAction(
  store: { runAction(name: string, context?: ActionContext): Promise<void> },
  button: TableButtonConfig,
  row?: Row
): Promise<void> {
  if (button.action.trim() === '') return Promise.resolve()
  return store.runAction(button.action, row ? { row } : {})
}
