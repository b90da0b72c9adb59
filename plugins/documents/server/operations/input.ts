import type { PluginRequest } from '@tramita/plugin-api'
import { failure, type OperationKind } from './failures.js'

/** A positive integer id from the client; anything else is the operation's failure. */
export function parseId(kind: OperationKind, value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2147483647) throw failure(kind, 400, 'invalid_id')
  return Number(text)
}

/** An optional id: absent, empty, 0, 'null' or 'root' is null (the caller's root). */
export function optionalId(kind: OperationKind, value: string | undefined): number | null {
  const text = (value ?? '').trim()
  if (text === '' || text === '0' || text === 'null' || text === 'root') return null
  return parseId(kind, text)
}

/**
 * A list of ids from one field: a JSON list (`[1, 2]`, items numbers, digit strings or `{id}`), or one
 * id, or ids separated by commas. At most `max`, repeats dropped; absent is [].
 */
export function idList(kind: OperationKind, req: PluginRequest, name: string, max: number): number[] {
  return [...new Set(listItems(kind, req, name, max).map((item) => parseId(kind, item)))]
}

/**
 * Library file ids and a form's file paths (`/data/files/<uuid>.<ext>`, an upload or generated document of
 * a case, read through the core's caseFiles), as idList takes them; `{path}` objects too (a file field's value).
 */
export function fileRefList(kind: OperationKind, req: PluginRequest, name: string, max: number): (number | string)[] {
  const refs = listItems(kind, req, name, max).map((item) => {
    const text = typeof item === 'string' ? item.trim() : ''
    return text.startsWith(CASE_FILE_PREFIX) ? text : parseId(kind, item)
  })
  return [...new Set(refs)]
}

export const CASE_FILE_PREFIX = '/data/files/'

/** A list field: JSON (`[1, 2]`, `[{id: 1}]`, `[{path: '/data/files/…'}]`) or comma-separated; at most `max`. */
function listItems(kind: OperationKind, req: PluginRequest, name: string, max: number): unknown[] {
  const raw = req.field(name)
  if (raw === undefined || raw.trim() === '') return []
  let items: unknown[]
  if (raw.trim().startsWith('[')) {
    let parsed: unknown
    try {
      parsed = req.json(name)
    } catch {
      throw failure(kind, 400, 'invalid_id')
    }
    if (!Array.isArray(parsed)) throw failure(kind, 400, 'invalid_id')
    items = parsed.map((item) => {
      if (item === null || typeof item !== 'object') return item
      const { id, path } = item as { id?: unknown; path?: unknown }
      return id ?? path
    })
  } else items = raw.split(',')
  if (items.length > max) throw failure(kind, 400, 'too_many')
  return items
}

/** The spec's flags: 'true', '1', 'on' (any case) are true. */
export function flag(value: string | undefined): boolean {
  return /^(true|1|on|yes)$/i.test((value ?? '').trim())
}
