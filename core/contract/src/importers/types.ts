/** Shapes shared by the importers: what an import returns and the items it builds. */
import type { FormConfigInput } from '../config.js'
import type { TypeMap } from './type-map.js'

export type ImportFormat = 'jsonconfig' | 'formio' | 'surveyjs'

/**
 * Something of the source the jsonconfig cannot hold: its JSON Pointer in the source, and why. A custom
 * type imported as another (custom-types.ts) is listed too, with `mapped` naming the source library's
 * type it was read as, so a changed meaning is never silent.
 */
export interface Unmapped {
  path: string
  reason: string
  mapped?: string
}

/** How an import reads the source: the mapping file's custom types (type-map.ts). */
export interface ImportOptions {
  typeMap?: TypeMap
}

export interface ImportResult {
  config: FormConfigInput
  unmapped: Unmapped[]
  format: ImportFormat
}

/** A field or element while it is built: only the keys that differ from the defaults are written. */
export interface DraftItem {
  field_name: string
  type: string
  saveable?: boolean
  state?: { show?: boolean; natural?: 'enabled' | 'disabled' | 'readonly' }
  data: Record<string, unknown>
  /** Named actions (validations.actions) run on the item's events. */
  events?: Record<string, string[]>
  /** Texts the source gives in our other languages (translations.ts): language → key → text. */
  translations?: Record<string, Record<string, string>>
}

/** A loosely typed JSON object of the source. */
export type Json = Record<string, unknown>

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The source's array at a key, or [] when it is missing or not an array. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** A value worth reporting when it is lost: not empty, not false, not a map of falses. */
export function isMeaningful(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false
  if (Array.isArray(value)) return value.length > 0
  if (isObject(value)) return Object.values(value).some(isMeaningful)
  return true
}

/** The object at `key` inside `data`, created when missing (data.ref, data.label, ...). */
export function part(data: Json, key: string): Json {
  const existing = data[key]
  if (isObject(existing)) return existing
  const created: Json = {}
  data[key] = created
  return created
}

/** A positive number from a number or a numeric text; undefined otherwise. */
export function positive(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined
}
