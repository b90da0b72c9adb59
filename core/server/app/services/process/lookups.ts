import db from '@adonisjs/lucid/services/db'
import { toStoredValue, type FormItem } from '@tramita/contract'
import { latestVersionByKey, versionsByIds, type LoadedVersion } from './definitions.js'
import { visibleTo, type Viewer } from './inbox.js'

/**
 * Lookups of stored case values (spec 000 §7 `returncolumnsdata` and `links_modules` select_forms),
 * used by autocomplete rules and linked fields.
 *
 * There are no user-made "databases" in the product: a lookup source is a published form, named by
 * its key (the same key as /forms/new?data=…). Its "columns" are the form's fields (by field_name,
 * checked against the newest version; password fields are never readable) plus CODE_PROCESS, and its
 * "rows" are its cases, each column given as the display text of the stored value (value_replace),
 * the text a select, date or number shows. Values are one JSON document per case, so search, order
 * and `where` run here over the newest SCAN_CAP cases the caller may see; SQL only picks the cases
 * (by form, visibility and starter), always with bound values.
 */

/** Cases read per lookup at most (newest first). */
export const SCAN_CAP = 2000
export const LIMIT_MAX = 500
export const CODE_COLUMN = 'CODE_PROCESS'

export class LookupRefusal extends Error {
  constructor(
    readonly key: string,
    readonly vars: Record<string, unknown> = {}
  ) {
    super(key)
  }
}

/** Narrowing the client asks for: starters among these users, or members of these areas or roles ('*': anyone). */
export interface Access {
  users: number[] | '*'
  areas: number[]
  rols: number[]
}

export interface LookupQuery {
  source: LoadedVersion
  columns: string[]
  search: string
  limit: number
  order: { column: string | null; dir: 'asc' | 'desc' }
  where: Record<string, string | number | boolean | null>
  access: Access
  lang: string
}

export type LookupRow = Record<string, string>

/** The published form a lookup reads, by key. */
export async function lookupSource(key: unknown): Promise<LoadedVersion> {
  if (typeof key !== 'string' && typeof key !== 'number')
    throw new LookupRefusal('lookup.unknown_source', { value: '' })
  const version = await latestVersionByKey(String(key))
  if (!version) throw new LookupRefusal('lookup.unknown_source', { value: String(key).slice(0, 64) })
  return version
}

/** The readable fields of a form version: every field except password texts. */
function readableFields(version: LoadedVersion): Map<string, FormItem> {
  const fields = new Map<string, FormItem>()
  for (const item of version.form.fields) {
    if (item.type === 'text' && item.data?.password === true) continue
    fields.set(item.field_name, item)
  }
  return fields
}

/** Checks a column name against the source's fields; unknown or unreadable names are refused. */
export function checkColumn(source: LoadedVersion, name: string, allowCode = true): string {
  if (allowCode && name === CODE_COLUMN) return name
  if (!readableFields(source).has(name)) {
    const exists = source.form.fields.some((f) => f.field_name === name)
    throw new LookupRefusal(exists ? 'lookup.hidden_column' : 'lookup.unknown_column', { field: name.slice(0, 60) })
  }
  return name
}

function displayText(item: FormItem | undefined, raw: unknown, lang: string): string {
  if (raw === undefined || raw === null) return ''
  if (item) {
    try {
      return String(toStoredValue(item, raw, { lang }).value_replace ?? '')
    } catch {
      // A value stored under an older shape of the field: its plain text below.
    }
  }
  return typeof raw === 'object' ? JSON.stringify(raw) : String(raw)
}

/** Does a stored value equal what `where` asks for: its typed value, its display text, or one of its ids? */
function matches(raw: unknown, text: string, wanted: string | number | boolean | null): boolean {
  if (wanted === null) return raw === undefined || raw === null || raw === '' || text === ''
  const target = String(wanted)
  if (Array.isArray(raw)) {
    return raw.some((v) => String(typeof v === 'object' && v !== null && 'code' in v ? v.code : v) === target)
  }
  if (typeof raw === 'object' && raw !== null) return text === target
  return String(raw) === target || text === target
}

export async function lookupRows(viewer: Viewer, query: LookupQuery): Promise<LookupRow[]> {
  const { source, columns, search, limit, order, where, access, lang } = query
  const q = db.from('cases as c').where('c.form_id', source.formId)
  visibleTo(q, viewer)
  if (access.users !== '*') {
    const users = access.users
    q.where((w) => {
      w.whereIn('c.created_by', users)
      if (access.areas.length > 0) {
        w.orWhereIn('c.created_by', db.from('user_areas').whereIn('area_id', access.areas).select('user_id'))
      }
      if (access.rols.length > 0) {
        w.orWhereIn('c.created_by', db.from('user_roles').whereIn('role_id', access.rols).select('user_id'))
      }
    })
  }
  // Without search, where or a column order, the newest `limit` cases are the answer: read only those.
  const inMemory = search !== '' || Object.keys(where).length > 0 || order.column !== null
  const rows = (await q
    .orderBy('c.id', order.column === null ? order.dir : 'desc')
    .limit(inMemory ? SCAN_CAP : limit)
    .select('c.id', 'c.code', 'c.values', 'c.form_version_id')) as {
    code: string
    values: string
    form_version_id: number
  }[]

  const versions = await versionsByIds(rows.map((r) => Number(r.form_version_id)))
  const latest = readableFields(source)
  const needle = search.toLocaleLowerCase()
  const out: { row: LookupRow; key: string }[] = []
  for (const r of rows) {
    const values = JSON.parse(r.values) as Record<string, unknown>
    const own = versions.get(Number(r.form_version_id))
    const fieldOf = (name: string) => own?.form.fields.find((f) => f.field_name === name) ?? latest.get(name)
    const text = (name: string) => (name === CODE_COLUMN ? r.code : displayText(fieldOf(name), values[name], lang))
    let keep = true
    for (const [name, wanted] of Object.entries(where)) {
      if (!matches(values[name], text(name), wanted)) {
        keep = false
        break
      }
    }
    if (!keep) continue
    const row: LookupRow = { [CODE_COLUMN]: r.code }
    for (const name of columns) row[name] = text(name)
    if (needle && !columns.some((name) => row[name].toLocaleLowerCase().includes(needle))) continue
    out.push({ row, key: order.column ? (row[order.column] ?? text(order.column)) : '' })
  }
  if (order.column) {
    const collator = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' })
    out.sort((a, b) => (order.dir === 'asc' ? 1 : -1) * collator.compare(a.key, b.key))
  }
  return out.slice(0, limit).map((o) => o.row)
}
