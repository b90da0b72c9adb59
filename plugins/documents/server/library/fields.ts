import { PluginFailure, type PluginRequest } from '@tramita/plugin-api'

/** A positive integer id from the client (a path param or field); anything else is a clear fail. */
export function toId(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2147483647) throw new PluginFailure('documents.invalid_id', 400)
  return Number(text)
}

/** An optional id field: absent or empty is null. */
export function optionalId(req: PluginRequest, name: string): number | null {
  const value = req.field(name)
  if (value === undefined || value.trim() === '' || value === 'null') return null
  return toId(value)
}

/** A JSON list of ids (`[1, 2]`), at most `max`, without repeats; absent is []. */
export function idList(req: PluginRequest, name: string, max = 1000): number[] {
  let value: unknown
  try {
    value = req.json(name)
  } catch {
    throw new PluginFailure('documents.invalid_id', 400)
  }
  if (value === undefined || value === null || value === '') return []
  if (!Array.isArray(value) || value.length > max) throw new PluginFailure('documents.invalid_id', 400)
  return [...new Set(value.map(toId))]
}

/** A bounded non-negative integer from the query, or its default. */
export function intField(req: PluginRequest, name: string, fallback: number, max: number): number {
  const value = req.field(name)
  if (value === undefined || value === '') return fallback
  if (!/^\d{1,9}$/.test(value)) throw new PluginFailure('documents.invalid_paging', 400)
  return Math.min(Number(value), max)
}

/** A timestamp as the engines return it (SQLite: ms number; MariaDB: Date) in ISO form. */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'number') return new Date(value).toISOString()
  if (typeof value === 'string') {
    const date = /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value.replace(' ', 'T'))
    return Number.isNaN(date.getTime()) ? value : date.toISOString()
  }
  return ''
}
