/**
 * Pure rules of the table element (spec 000 §3 table, §5 "Table", §8, §9; 001 §3, §5, §8, §9): the
 * settings as the renderer reads them, what a cell shows (masks, formats, display rules), what an
 * edited cell stores, and the pager's sizes. No React and no DOM, so they are unit-tested as they are.
 */
import {
  applyMask,
  coerceTableCell,
  formulaFailureValue,
  pageSizeOptions,
  parseTableDate,
  TABLE_MESSAGES,
  TABLE_PAGE_SIZE,
} from '@tramita/contract'
import { formatDate } from '@tramita/sandbox'

export type Row = Record<string, unknown>

export interface DisplayRule {
  text?: string
  color?: string
  icon?: string
}

export interface TableButtonConfig {
  action: string
  formule: string
  icon: string
  text: string
  text_error: string
  background: string
  color: string
}

export interface TableColumnConfig {
  name: string
  label: string
  show: boolean
  editable: boolean
  sorteable: boolean
  filterable: boolean
  type: string
  mask: string
  format: string
  output: string
  display: { true?: DisplayRule; false?: DisplayRule }
  fontsize: number
  bold: boolean
  formule: string
  buttons: TableButtonConfig[]
}

export interface TablePagination {
  start: number
  size: number
  showBar: boolean
  showSelect: boolean
  selectOptions: string
}

export interface TableConfig {
  columns: TableColumnConfig[]
  search_show: boolean
  pagination: TablePagination
  groupBy: string
  uniqueKey: string
  child_row: string
  headButtons: TableButtonConfig[]
  header_background: string
  header_color: string
}

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback)
const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback)
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback)

function readButton(raw: unknown): TableButtonConfig {
  const b = (raw ?? {}) as Record<string, unknown>
  return {
    action: str(b.action),
    formule: str(b.formule),
    icon: str(b.icon),
    text: str(b.text),
    text_error: str(b.text_error),
    background: str(b.background),
    color: str(b.color),
  }
}

/**
 * The table settings with the contract's defaults filled in again: withDefaults has applied them to
 * a published form, but a preset or an old draft may lack some, and the renderer must not crash on it.
 */
export function readTableConfig(raw: unknown): TableConfig {
  const t = (raw ?? {}) as Record<string, unknown>
  const p = (t.pagination ?? {}) as Record<string, unknown>
  const columns = (Array.isArray(t.columns) ? t.columns : []).map((c: Record<string, unknown>) => {
    const display = (c.display ?? {}) as { true?: DisplayRule; false?: DisplayRule }
    return {
      name: str(c.name),
      label: str(c.label),
      show: bool(c.show, true),
      editable: bool(c.editable, false),
      sorteable: bool(c.sorteable, true),
      filterable: bool(c.filterable, true),
      type: str(c.type, 'text') || 'text',
      mask: str(c.mask),
      format: str(c.format),
      output: str(c.output),
      display: { true: display.true ?? {}, false: display.false ?? {} },
      fontsize: num(c.fontsize, 14),
      bold: bool(c.bold, false),
      formule: str(c.formule),
      buttons: (Array.isArray(c.buttons) ? c.buttons : []).map(readButton),
    }
  })
  return {
    columns: columns.filter((c) => c.name !== ''),
    search_show: bool(t.search_show, true),
    pagination: {
      start: num(p.start, TABLE_PAGE_SIZE),
      size: num(p.size, TABLE_PAGE_SIZE),
      showBar: bool(p.showBar, true),
      showSelect: bool(p.showSelect, true),
      selectOptions: str(p.selectOptions, '10,20,30'),
    },
    groupBy: str(t.groupBy),
    uniqueKey: str(t.uniqueKey, 'id') || 'id',
    child_row: str(t.child_row),
    headButtons: (Array.isArray(t.headButtons) ? t.headButtons : []).map(readButton),
    header_background: str(t.header_background, '#1C1066'),
    header_color: str(t.header_color, '#ffffff'),
  }
}

/** Whether a column's cells come from its formula: formule columns, and number columns given one. */
export function isComputed(column: TableColumnConfig): boolean {
  return column.formule.trim() !== '' && (column.type === 'formule' || column.type === 'number')
}

export type ShownKind = 'text' | 'number' | 'boolean' | 'date'

/** How a cell's value is shown: its type, or for a formula its `output` (text when not one of the others). */
export function shownKind(column: TableColumnConfig): ShownKind {
  const kind = column.type === 'formule' ? column.output : column.type
  return kind === 'number' || kind === 'boolean' || kind === 'date' ? kind : 'text'
}

/** The texts a cell may show that are not the value's own. */
export interface CellTexts {
  yes: string
  no: string
  invalidDate: string
  invalidNumber: string
}

export const SPANISH_CELL_TEXTS: CellTexts = {
  yes: 'Sí',
  no: 'No',
  invalidDate: TABLE_MESSAGES.invalidDate,
  invalidNumber: TABLE_MESSAGES.invalidNumber,
}

export interface ShownCell {
  text: string
  color?: string
  icon?: string
  /** The value could not be read as its type (the text is then the spec's message). */
  invalid?: boolean
}

const formatters = new Map<string, Intl.NumberFormat>()

function numberFormat(language: string, format: string): Intl.NumberFormat {
  const key = `${language}|${format}`
  let made = formatters.get(key)
  if (!made) {
    made = new Intl.NumberFormat(...numberFormatOptions(language, format))
    formatters.set(key, made)
  }
  return made
}

/**
 * A number column's `format`: '' (the page language's way), 'money' or 'money:USD' (es-CO and COP by
 * default, spec 000 §9), 'percent' (0.25 → 25 %), or a pattern like '0.00' / '#,##0.0' whose digits
 * after the point fix the decimals and whose comma turns grouping on.
 */
export function numberFormatOptions(language: string, format: string): [string, Intl.NumberFormatOptions] {
  const f = format.trim()
  if (f === '') return [language, {}]
  if (f === 'money' || f.startsWith('money:')) {
    const currency = f.slice(6).trim().toUpperCase() || 'COP'
    return ['es-CO', { style: 'currency', currency: /^[A-Z]{3}$/.test(currency) ? currency : 'COP' }]
  }
  if (f === 'percent') return [language, { style: 'percent', maximumFractionDigits: 2 }]
  const decimals = /\.([0#]+)$/.exec(f)?.[1]?.length ?? 0
  return [language, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: f.includes(',') }]
}

/** Reads a cell as a number: numbers as they are, text with a comma or a point as decimal mark. */
export function cellNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = coerceTableCell('number', raw)
    return typeof n === 'number' ? n : null
  }
  return null
}

/** A datetime-local value shown with a `format` of formatDate's tokens (YYYY, MM, DD, HH, mm, ...). */
function dateText(local: string, raw: unknown, format: string): string {
  const dateOnly = typeof raw === 'string' && /^\d{4}[-/]\d{2}[-/]\d{2}$/.test(raw.trim())
  if (format.trim() === '') return dateOnly ? local.slice(0, 10) : local.replace('T', ' ')
  // formatDate reads a zone-less ISO text as local time, the same as parseTableDate wrote it.
  return formatDate(local, format)
}

const isBlank = (raw: unknown) => raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')

/**
 * What a cell shows (spec 000 §3 columns): numbers formatted, 'Número inválido' when not one; dates as
 * datetime-local or their format, 'Fecha inválida' when not one; booleans by their display rule (text,
 * colour, icon) or yes/no; text through its mask. Blank shows blank.
 */
export function showCell(
  column: TableColumnConfig,
  raw: unknown,
  language: string,
  texts: CellTexts = SPANISH_CELL_TEXTS
): ShownCell {
  const kind = shownKind(column)
  if (kind === 'boolean' || typeof raw === 'boolean') {
    if (isBlank(raw) && kind !== 'boolean') return { text: '' }
    const on = coerceTableCell('boolean', raw) === true
    const rule = column.display[on ? 'true' : 'false'] ?? {}
    return {
      text: rule.text || (on ? texts.yes : texts.no),
      color: rule.color || undefined,
      icon: rule.icon || undefined,
    }
  }
  if (isBlank(raw)) return { text: '' }
  switch (kind) {
    case 'number': {
      const n = cellNumber(raw)
      return n === null
        ? { text: texts.invalidNumber, invalid: true }
        : { text: numberFormat(language, column.format).format(n) }
    }
    case 'date': {
      const local = parseTableDate(raw)
      if (!local) return { text: texts.invalidDate, invalid: true }
      try {
        return { text: dateText(local, raw, column.format) }
      } catch {
        return { text: texts.invalidDate, invalid: true }
      }
    }
    default: {
      const text = typeof raw === 'object' ? JSON.stringify(raw) : String(raw)
      return { text: column.mask ? applyMask(text, column.mask) : text }
    }
  }
}

/** The text a failed formula shows (spec 000 §8): '0' where a number is shown, 'Error' otherwise. */
export function formulaFailureText(column: TableColumnConfig): string {
  return formulaFailureValue(shownKind(column) === 'number' ? 'number' : 'text')
}

/** What an editor starts with: the value in the input's own form (datetime-local, plain number, text). */
export function editorValue(column: TableColumnConfig, raw: unknown): string | boolean {
  switch (column.type) {
    case 'boolean':
      return coerceTableCell('boolean', raw) === true
    case 'number': {
      const n = cellNumber(raw)
      return n === null ? '' : String(n)
    }
    case 'date':
      return parseTableDate(raw) ?? ''
    default:
      return isBlank(raw) ? '' : typeof raw === 'object' ? JSON.stringify(raw) : String(raw)
  }
}

export type ParsedCell =
  { ok: true; value: string | number | boolean } | { ok: false; message: 'invalid_number' | 'invalid_date' }

/**
 * Reads what an editor holds (spec 000 §5, §8): a number or 'Número inválido', a datetime-local value
 * or 'Fecha inválida' (the messages' i18n keys), true/false, or text through the column's mask.
 * `badInput` is the input's own verdict (a number input holding "1e" reports an empty value).
 */
export function parseEditor(column: TableColumnConfig, input: string | boolean, badInput = false): ParsedCell {
  switch (column.type) {
    case 'number': {
      if (badInput) return { ok: false, message: 'invalid_number' }
      const value = coerceTableCell('number', input)
      return value === TABLE_MESSAGES.invalidNumber ? { ok: false, message: 'invalid_number' } : { ok: true, value }
    }
    case 'date': {
      if (badInput) return { ok: false, message: 'invalid_date' }
      const value = coerceTableCell('date', input)
      return value === TABLE_MESSAGES.invalidDate ? { ok: false, message: 'invalid_date' } : { ok: true, value }
    }
    case 'boolean':
      return { ok: true, value: coerceTableCell('boolean', input) }
    default: {
      const text = typeof input === 'string' ? input : String(input)
      return { ok: true, value: column.mask ? applyMask(text, column.mask) : text }
    }
  }
}

/** The rows with one cell changed: a new list and a new row object, the others shared. */
export function withCell(rows: readonly Row[], index: number, name: string, value: unknown): Row[] {
  return rows.map((row, i) => (i === index ? { ...row, [name]: value } : row))
}

/** The page size first shown (pagination.start, else size, else 10) and the sizes the selector offers. */
export function pageSizes(pagination: TablePagination): { initial: number; offered: number[] } {
  const initial = Math.floor(pagination.start || pagination.size || TABLE_PAGE_SIZE)
  const sizes = pageSizeOptions(pagination.selectOptions)
  return { initial, offered: sizes.includes(initial) ? sizes : [...sizes, initial].sort((a, b) => a - b) }
}

/**
 * Row ids from uniqueKey (spec 000 §3, default 'id'): the key's value when the row has one and no other
 * row shares it, else the row's position, so ids are always unique and edits land on the right row.
 */
export function rowIds(rows: readonly Row[], uniqueKey: string): string[] {
  const seen = new Set<string>()
  return rows.map((row, index) => {
    const key = row[uniqueKey]
    const id = typeof key === 'string' || typeof key === 'number' ? `k:${key}` : `i:${index}`
    if (seen.has(id)) return `i:${index}`
    seen.add(id)
    return id
  })
}

/** Icons named in display rules and buttons: a few common names, or one or two characters shown as they are. */
const ICONS: Record<string, string> = {
  check: '✓',
  done: '✓',
  close: '✕',
  clear: '✕',
  cancel: '✕',
  edit: '✎',
  pencil: '✎',
  delete: '🗑',
  trash: '🗑',
  add: '+',
  plus: '+',
  remove: '−',
  minus: '−',
  eye: '👁',
  visibility: '👁',
  warning: '⚠',
  alert: '⚠',
  info: 'ℹ',
  star: '★',
  search: '🔍',
  download: '⬇',
  upload: '⬆',
  send: '➤',
  print: '🖨',
  file: '📄',
  mail: '✉',
  email: '✉',
  lock: '🔒',
  user: '👤',
  person: '👤',
  calendar: '📅',
}

export function iconGlyph(icon: string | undefined): string {
  const name = String(icon ?? '')
    .trim()
    .replace(/^(mdi|fa|fas|far|material-icons|icon)[-_ ]/i, '')
    .toLowerCase()
  if (name === '') return ''
  if (ICONS[name]) return ICONS[name]
  return [...name].length <= 2 ? String(icon).trim() : ''
}
