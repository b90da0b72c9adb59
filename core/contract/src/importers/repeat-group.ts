/**
 * What the importers share for repeating groups (types/repeat.ts): which of the cells the source's
 * own field makers built a group can hold, and the group's data.
 */
import { cellType } from '../types/repeat.js'
import type { FormDraft } from './draft.js'
import type { DraftItem, Json } from './types.js'

/** The items a group can hold as cells; any other is reported at its source path. */
export function keepCells(draft: FormDraft, items: DraftItem[], path: string): DraftItem[] {
  return items.filter((item) => {
    if (cellType(item.type)) return true
    draft.skip(path, `a cell of a repeating group cannot be a ${item.type} field`)
    return false
  })
}

export interface Rows {
  min?: number
  /** Undefined: no limit. */
  max?: number
  /** Fixed captions by position (a matrix's rows). */
  labels?: string[]
  addText?: string
}

/** A repeat field's data: its cells and, when given, its row limits, captions and add button text. */
export function repeatData(cells: DraftItem[], rows: Rows): Json {
  const data: Json = { cells }
  if (rows.min !== undefined && rows.min > 0) data.min_rows = rows.min
  if (rows.max !== undefined) data.max_rows = rows.max
  if (rows.labels?.length) data.row_labels = rows.labels
  if (rows.addText) data.add_text = rows.addText
  return data
}

/** A row count from the source: a whole number of at least 0, else undefined. */
export function rowCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined
}
