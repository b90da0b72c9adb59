/**
 * Table element rules (spec 000 §3 table, §5 "Table", §8; spec 001 §3, §5, §8, §9): the editor each
 * column type uses, how edited cells are read, formula failures, button state and pagination defaults.
 */

import { parseDecimal } from './number.js'

export type TableColumnType = 'text' | 'number' | 'boolean' | 'date' | 'formule' | 'buttons'

/** Cell texts the spec fixes in Spanish (spec 000 §8, 001 §8). */
export const TABLE_MESSAGES = { invalidDate: 'Fecha inválida', invalidNumber: 'Número inválido' } as const

/** The core/i18n keys holding the same texts, for screens that translate them. */
export const TABLE_MESSAGE_KEYS = { invalidDate: 'invalid_date', invalidNumber: 'invalid_number' } as const

/** Pagination defaults (spec 000 §3, §9; 001 §9): first page size 10, size 10, sizes offered 10, 20, 30. */
export const TABLE_PAGINATION_DEFAULT = { start: 10, size: 10, selectOptions: '10,20,30' } as const

export type TableCellInput =
  { kind: 'text' } | { kind: 'number'; step: 1 } | { kind: 'checkbox' } | { kind: 'datetime-local' } | { kind: 'none' }

/**
 * The editor of a cell in edit mode (spec 000 §5 "Table"): number steps by 1, boolean is a true/false
 * checkbox, date uses datetime-local, formula and button columns are not edited. Unknown types edit as text.
 */
export function tableCellInput(columnType: string): TableCellInput {
  switch (columnType) {
    case 'number':
      return { kind: 'number', step: 1 }
    case 'boolean':
      return { kind: 'checkbox' }
    case 'date':
      return { kind: 'datetime-local' }
    case 'formule':
    case 'buttons':
      return { kind: 'none' }
    default:
      return { kind: 'text' }
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Formats date-time parts as a datetime-local value; seconds are written only when not zero. */
function localDateTime(y: number, mo: number, d: number, h: number, mi: number, s: number): string {
  const base = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}`
  return s === 0 ? base : `${base}:${pad(s)}`
}

const daysInMonth = (year: number, month: number) =>
  [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    month - 1
  ]!

function fromDate(date: Date): string | null {
  if (Number.isNaN(date.getTime())) return null
  const y = date.getFullYear()
  if (y < 1 || y > 9999) return null
  return localDateTime(y, date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds())
}

/** Minutes east of UTC written in a zone designator: Z, +05:00, -0300. */
function zoneOffsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0
  const digits = zone.slice(1).replace(':', '')
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))
  return zone.startsWith('-') ? -minutes : minutes
}

// YYYY-MM-DD or YYYY/MM/DD, then optionally T or space and HH:mm[:ss[.fff]], then optionally a zone.
const DATE_TEXT = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * Reads a date cell as a local date-time in datetime-local form (`YYYY-MM-DDTHH:mm`, `:ss` added when not
 * zero), or null when it is not a real date. Text without a zone is taken as written, so the result does
 * not depend on the machine's time zone; text with a zone, Date objects and epoch milliseconds are
 * converted to local time.
 */
export function parseTableDate(raw: unknown): string | null {
  if (raw instanceof Date) return fromDate(raw)
  if (typeof raw === 'number') return Number.isFinite(raw) ? fromDate(new Date(raw)) : null
  if (typeof raw !== 'string') return null
  const m = DATE_TEXT.exec(raw.trim())
  if (!m) return null
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    part === undefined ? undefined : Number(part)
  ) as number[]
  if (y! < 1 || mo! < 1 || mo! > 12 || d! < 1 || d! > daysInMonth(y!, mo!)) return null
  if (h > 23 || mi > 59 || s > 59) return null
  if (m[7]) {
    // Built by hand rather than by Date's parser, which differs between engines on these forms.
    const utc = new Date(0)
    utc.setUTCFullYear(y!, mo! - 1, d!)
    utc.setUTCHours(h, mi, s, 0)
    return fromDate(new Date(utc.getTime() - zoneOffsetMinutes(m[7]) * 60_000))
  }
  return localDateTime(y!, mo!, d!, h, mi, s)
}

export type TableCellValue = string | number | boolean

/**
 * Reads an edited cell (spec 000 §5, §8; 001 §5, §8): a number column gives a number or 'Número
 * inválido'; a date column gives a datetime-local value or 'Fecha inválida'; a boolean column gives
 * true only for true, 'true' (any case), 1 or '1'. An emptied number or date cell stays '' rather than
 * showing an error, since empty is not an invalid entry. Other columns keep text.
 */
export function coerceTableCell(columnType: string, raw: unknown): TableCellValue {
  const blank = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')
  switch (columnType) {
    case 'number': {
      if (blank) return ''
      const n = typeof raw === 'number' ? (Number.isFinite(raw) ? raw : null) : parseDecimal(String(raw))
      return n ?? TABLE_MESSAGES.invalidNumber
    }
    case 'date':
      return blank ? '' : (parseTableDate(raw) ?? TABLE_MESSAGES.invalidDate)
    case 'boolean':
      return raw === true || raw === 1 || (typeof raw === 'string' && ['true', '1'].includes(raw.trim().toLowerCase()))
    default:
      if (typeof raw === 'number' || typeof raw === 'boolean') return columnType === 'text' ? String(raw) : raw
      return typeof raw === 'string' ? raw : ''
  }
}

/** What a cell shows when its formula fails (spec 000 §8, 001 §8): '0' in a number column, 'Error' otherwise. */
export function formulaFailureValue(columnType: string): '0' | 'Error' {
  return columnType === 'number' ? '0' : 'Error'
}

export interface TableButtonInput {
  /** The button's own enabled flag. */
  enabled: boolean
  /** Result of the button's condition formula; absent when it has none. A failed evaluation must be passed as false. */
  conditionResult?: boolean
  /** buttons.text_error: why the button cannot be used. */
  text_error?: string | null
}

export interface TableButtonState {
  usable: boolean
  greyed: boolean
  /** The tooltip: the error text when greyed, null when usable. */
  title: string | null
}

/**
 * State of a table row button (spec 000 §5, 001 §5): usable only when enabled and its condition holds
 * (a button without a condition only needs to be enabled); otherwise greyed, titled with its error text.
 * Only a boolean true counts as holding, so a script returning the text 'false' cannot unlock it.
 */
export function tableButtonState(button: TableButtonInput): TableButtonState {
  const holds = button.conditionResult === undefined || button.conditionResult === true
  const usable = button.enabled === true && holds
  return { usable, greyed: !usable, title: usable ? null : (button.text_error ?? '') }
}

/**
 * The page sizes a table offers (spec 000 §3 pagination.selectOptions, default '10,20,30'): positive whole
 * numbers in the order written, each once; bad entries are ignored, and when none is usable the default
 * sizes are offered so the selector is never empty.
 */
export function pageSizeOptions(selectOptions: string | null | undefined): number[] {
  const sizes = parsePageSizes(String(selectOptions ?? ''))
  return sizes.length > 0 ? sizes : parsePageSizes(TABLE_PAGINATION_DEFAULT.selectOptions)
}

function parsePageSizes(text: string): number[] {
  const sizes: number[] = []
  for (const entry of text.split(',')) {
    const t = entry.trim()
    const n = /^\d+$/.test(t) ? Number(t) : 0
    if (n > 0 && Number.isSafeInteger(n) && !sizes.includes(n)) sizes.push(n)
  }
  return sizes
}
