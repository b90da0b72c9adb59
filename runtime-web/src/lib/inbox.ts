/**
 * The inbox's shapes and the pure helpers of its screens (/process and the home page): what the
 * server answers, and how the filter form becomes query fields. No React here, so it is unit-tested.
 */

export interface StateInfo {
  id: string
  label: string
  color: string
}

export interface PendingRow {
  token: string
  key_process: string
  code: string
  form_key: string
  process: string
  step_id: string
  step: string
  kind: 'fill' | 'approve'
  state: StateInfo
  assignee_type: 'user' | 'rol' | 'area' | 'external'
  assignee: string
  claimable: boolean
  claimed_by: { id: number; name: string } | null
  claimed_at: string | null
  assigned_at: string | null
  started_at: string | null
  updated_at: string | null
  link: string
}

export interface StartedRow {
  key_process: string
  code: string
  form_key: string
  process: string
  state: StateInfo
  status: 'open' | 'ended'
  waiting_on: string
  started_at: string | null
  updated_at: string | null
  ended_at: string | null
  link: string
}

export interface StartableProcess {
  key: string
  name: string
  label: string
  color: string
  link: string
}

export interface Listing<T> {
  rows: T[]
  total: number
  page: number
  per_page: number
}

export interface FilterOptions {
  processes: { key: string; name: string; states: StateInfo[] }[]
}

export interface Summary {
  counts: {
    pending: number
    to_fill: number
    to_approve: number
    claimed_by_me: number
    started_open: number
    started_ended: number
    startable: number
  }
  pending: PendingRow[]
}

export interface NavEntry {
  plugin: string
  path: string
  label: string
}

/** What the filter form holds; dates are the `YYYY-MM-DD` of a date input, in the user's own day. */
export interface Filters {
  search: string
  process: string
  state: string
  from: string
  to: string
}

export const NO_FILTERS: Filters = { search: '', process: '', state: '', from: '', to: '' }
export const PAGE_SIZES = [10, 20, 30] as const

/** Local midnight of a `YYYY-MM-DD` (plus `days`) as an ISO instant; null when the text is no date. */
export function localMidnight(date: string, days = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) return null
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}

/**
 * The query fields of a listing. The server reads `from` inclusive and `to` exclusive as instants,
 * so a local day range becomes [from's midnight, the midnight after `to`).
 */
export function listingFields(filters: Filters, page: number, perPage: number): Record<string, string> {
  const fields: Record<string, string> = { page: String(page), per_page: String(perPage) }
  if (filters.search.trim()) fields.search = filters.search.trim()
  if (filters.process) fields.process = filters.process
  if (filters.state) fields.state = filters.state
  const from = localMidnight(filters.from)
  const to = localMidnight(filters.to, 1)
  if (from) fields.from = from
  if (to) fields.to = to
  return fields
}

/** The states a state filter offers: the chosen process's, or every process's (once per id). */
export function stateChoices(options: FilterOptions | null, process: string): StateInfo[] {
  const processes = (options?.processes ?? []).filter((p) => !process || p.key === process)
  const seen = new Map<string, StateInfo>()
  for (const p of processes) for (const s of p.states) if (!seen.has(s.id)) seen.set(s.id, s)
  return [...seen.values()]
}

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)))
}

const two = (n: number) => String(n).padStart(2, '0')

/** A date as the spec shows dates (YYYY/MM/DD HH:mm), in the user's time zone; '' when absent. */
export function formatDate(iso: string | null): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}/${two(d.getMonth() + 1)}/${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
}
