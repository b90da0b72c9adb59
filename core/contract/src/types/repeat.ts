/**
 * repeat: a repeating group (issue 24). The person filling the form adds and removes rows, between
 * `min_rows` and `max_rows` (-1: no limit); every row has the same cells.
 *
 *   { field_name: 'hijos', type: 'repeat', data: {
 *       min_rows: 1, max_rows: 5,
 *       row_labels: [],   // fixed captions by position ('Lunes', 'Martes'...); else "Fila n"
 *       add_text: '',     // the add button's text; '' shows the default one
 *       cells: [          // fields of REPEAT_CELL_TYPES, each with its own type's keys and defaults
 *         { field_name: 'nombre', type: 'text', data: { validate: { required: true } } },
 *         { field_name: 'edad', type: 'number', data: { show_with_formule: "row.nombre !== ''" } },
 *         { field_name: 'meses', type: 'number', data: { formule: "row.edad === '' ? '' : row.edad * 12" } } ] } }
 *
 * The value is one object per row, `[{ nombre: 'Ana', edad: 7 }]`, each cell's value in its type's
 * shape (a cell left out holds its type's default). A cell's `show_with_formule` and `formule` run
 * once per row with `row` (that row's values) beside the form's fields (graph.ts, evaluate.ts): a cell
 * its condition hides is not required, a computed cell is not typed in (the server recomputes it).
 * Required rule, limits and value checks are the cell's own type's; its choices are fixed (no script
 * replaces them), so a value outside them is refused. Cells have no events or sets, and a group with
 * computed cells has no formula of its own (validate-config.ts says so).
 *
 * Sets (sets.ts) repeat one field over another field's value and cannot add a row, remove one from
 * the middle or show a cell per row: a group holds its rows itself.
 */
import { Value } from '@sinclair/typebox/value'
import * as Type from '../schema/type.js'
import { Translatable } from '../schema/translatable.js'
import { CommonFieldProps, Label, Script, Validate } from '../schema/common.js'
import { defineFieldType, type FieldType, type ValueContext } from '../registry.js'
import { contractText } from '../messages.js'
import { checkboxType, listType, radioType, radiosType, selectType, switchType } from './choice.js'
import { dateType, timeType } from './datetime.js'
import { moneyType, numberType } from './number.js'
import { emailType, textareaType, textType } from './text.js'
import { isBlank, serialise } from './shared.js'

export const REPEAT_TYPE = 'repeat'

/** The types a cell may have: each brings its schema, defaults, required rule, checks and renderer. */
export const REPEAT_CELL_TYPES: readonly FieldType[] = [
  textType,
  textareaType,
  emailType,
  numberType,
  moneyType,
  dateType,
  timeType,
  selectType,
  listType,
  radiosType,
  radioType,
  checkboxType,
  switchType,
]

const CELL_TYPES = new Map(REPEAT_CELL_TYPES.map((t) => [t.type, t]))

/** The type of a cell, or undefined for a type cells may not have. */
export const cellType = (type: string): FieldType | undefined => CELL_TYPES.get(type)

/**
 * The schema keyword marking a list whose entries are fields of their own types (by their `type`):
 * the designer's panel describes each entry from that type's schema (its choices, limits...).
 */
export const TYPED_ITEMS = 'typedItems'

/**
 * A cell as the group's schema sees it: a name, an accepted type and the keys every cell has (label,
 * required, condition, formula). The rest is its own type's: each cell is checked against its type's schema
 * (validate-config.ts), which also gives its defaults (defaults.ts).
 */
const Cell = Type.Object(
  {
    field_name: CommonFieldProps.field_name,
    type: Type.Union(REPEAT_CELL_TYPES.map((t) => Type.Literal(t.type))),
    data: Type.Object(
      { label: Label, validate: Validate, show_with_formule: Script, formule: Script },
      { additionalProperties: true, default: {} }
    ),
  },
  { additionalProperties: true }
)

/** A cell with its type's keys (defaults applied). */
export interface RepeatCell {
  field_name: string
  type: string
  data: Record<string, any>
  [key: string]: unknown
}

export interface RepeatItem {
  field_name: string
  data: { min_rows: number; max_rows: number; row_labels: string[]; cells: RepeatCell[]; label: { value: string } }
}

export type RepeatRow = Record<string, unknown>

/** The cells of a group (an item of another type has none; an entry that is not a cell is left out). */
export function repeatCells(item: { type: string; data: Record<string, any> }): RepeatCell[] {
  if (item.type !== REPEAT_TYPE || !Array.isArray(item.data?.cells)) return []
  return (item.data.cells as unknown[]).filter(isCell)
}

/** An entry of `cells` that is a cell (validateConfig reports any other at its path). */
export const isCell = (cell: unknown): cell is RepeatCell =>
  typeof cell === 'object' && cell !== null && typeof (cell as RepeatCell).data === 'object'

/** The cells computed by a formula (their rows' values are the formula's, never typed in). */
export function formulaCells(item: { type: string; data: Record<string, any> }): string[] {
  return repeatCells(item)
    .filter((cell) => String(cell.data.formule ?? '').trim() !== '')
    .map((cell) => cell.field_name)
}

/** A row with every cell at its type's default: what "add a row" appends. */
export function emptyRow(item: { data: { cells: RepeatCell[] } }): RepeatRow {
  const cells = item.data.cells.filter(isCell)
  return Object.fromEntries(cells.map((cell) => [cell.field_name, cellType(cell.type)?.defaultValue(cell)]))
}

/** A cell's value in a row: its type's default when the row leaves it out. */
export function cellValue(cell: RepeatCell, row: RepeatRow | undefined): unknown {
  const value = row?.[cell.field_name]
  return value === undefined || value === null ? cellType(cell.type)?.defaultValue(cell) : value
}

/** Whether one more row may be added / one removed. */
export const canAddRow = (item: RepeatItem, rows: number) => item.data.max_rows < 0 || rows < item.data.max_rows
export const canRemoveRow = (item: RepeatItem, rows: number) => rows > item.data.min_rows

/** A row's caption: its fixed label when the group has one for that position, else "Fila n". */
export function rowCaption(item: RepeatItem, index: number, ctx?: ValueContext): string {
  return item.data.row_labels[index] || contractText(ctx, 'repeat_row', { number: index + 1 })
}

/** The key of one cell of one row: the runtime's control ids, cell conditions and the missing list use it. */
export function cellKey(group: string, row: number, cell: string): string {
  return `${group}.${row}.${cell}`
}

/**
 * Whether a cell shows in a row: not when its state hides it; with a condition, once that row's
 * condition (by cellKey, evaluate.ts) has held, as a conditioned field shows.
 */
export function cellShown(cell: RepeatCell, key: string, conditions: ReadonlyMap<string, boolean>): boolean {
  if ((cell.state as { show?: boolean } | undefined)?.show === false) return false
  return String(cell.data.show_with_formule ?? '').trim() === '' || conditions.get(key) === true
}

const cellLabel = (cell: RepeatCell) => String(cell.data.label?.value || cell.field_name)

/** Ids of a choice value ('' and [] hold none). */
const chosen = (value: unknown): unknown[] => (isBlank(value) ? [] : Array.isArray(value) ? value : [value])

/** A cell value's problems: its type's shape and checks, and for choices an option the cell offers. */
function cellProblems(cell: RepeatCell, value: unknown, ctx: ValueContext): string[] {
  const type = cellType(cell.type)
  if (!type) return []
  if (!Value.Check(type.valueSchema!, value)) return [contractText(ctx, 'errors.info_invalida')]
  const problems = type.validate(cell, value, ctx)
  if (Array.isArray(cell.data.options)) {
    const ids = new Set((cell.data.options as { id: unknown }[]).map((o) => String(o.id)))
    for (const id of chosen(value)) {
      if (!ids.has(String(id))) problems.push(contractText(ctx, 'errors.option', { value: String(id) }))
    }
  }
  return problems
}

/** Every problem of a group's rows: their count, a cell the group does not have, a cell's value. */
export function repeatProblems(item: RepeatItem, rows: RepeatRow[], ctx: ValueContext = {}): string[] {
  const { min_rows: min, max_rows: max, cells } = item.data
  const problems: string[] = []
  if (rows.length < min) problems.push(contractText(ctx, 'errors.rows_min', { min }))
  if (max >= 0 && rows.length > max) problems.push(contractText(ctx, 'errors.rows_max', { max }))
  const byName = new Map(cells.map((cell) => [cell.field_name, cell]))
  rows.forEach((row, index) => {
    const at = rowCaption(item, index, ctx)
    for (const [name, value] of Object.entries(row)) {
      const cell = byName.get(name)
      if (!cell) {
        problems.push(contractText(ctx, 'errors.unknown_cell', { row: at, cell: name }))
        continue
      }
      if (value === undefined || value === null) continue
      for (const message of cellProblems(cell, value, ctx)) {
        problems.push(contractText(ctx, 'errors.cell', { row: at, cell: cellLabel(cell), message }))
      }
    }
  })
  return problems
}

export const repeatType = defineFieldType({
  type: REPEAT_TYPE,
  data: {
    min_rows: Type.Integer({ minimum: 0, default: 0 }),
    max_rows: Type.Integer({ minimum: -1, default: -1, description: '-1 is no limit' }),
    row_labels: Type.Array(Translatable(), { default: [] }),
    add_text: Translatable({ default: '' }),
    cells: Type.Array(Cell, { default: [], [TYPED_ITEMS]: true }),
  },
  value: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  defaultValue: (item) => Array.from({ length: item.data.min_rows }, () => emptyRow(item as any)),
  stored: (_item, rows, ctx) => ({
    value_replace: rows.length ? contractText(ctx, 'table_rows', { count: rows.length }) : '',
    value_simple: serialise(rows),
  }),
  required: (_item, rows) => rows.length > 0,
  validate: (item, rows, ctx) => repeatProblems(item as unknown as RepeatItem, rows, ctx),
})
