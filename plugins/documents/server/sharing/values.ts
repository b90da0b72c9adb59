import { PluginFailure } from '@tramita/plugin-api'
import { ITEM_TYPES, SHARE_PERMISSIONS, type ItemType, type SharePermission } from '../../shared/sharing.js'

/** Reading what a client sent and what the engines return (SQLite: numbers for dates and booleans). */

export function badRequest(key = 'documents.share_bad_request'): PluginFailure {
  return new PluginFailure(key, 400)
}

/** A positive integer id, or a 400 (an id from the client is checked against access later). */
export function idOf(value: unknown, key?: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^\d{1,12}$/.test(text)) throw badRequest(key)
  const id = Number(text)
  if (!Number.isSafeInteger(id) || id <= 0) throw badRequest(key)
  return id
}

export function itemTypeOf(value: unknown): ItemType {
  if (!ITEM_TYPES.includes(value as ItemType)) throw badRequest()
  return value as ItemType
}

export function permissionOf(value: unknown): SharePermission {
  if (!SHARE_PERMISSIONS.includes(value as SharePermission)) throw badRequest()
  return value as SharePermission
}

/** A stored timestamp as a Date (MariaDB gives Dates, SQLite the milliseconds knex wrote). */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value
  const date = typeof value === 'number' ? new Date(value) : new Date(String(value))
  return Number.isNaN(date.getTime()) ? null : date
}

export function isoOf(value: unknown): string | null {
  return dateOf(value)?.toISOString() ?? null
}

export function flagOf(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}
