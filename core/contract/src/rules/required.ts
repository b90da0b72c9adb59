/**
 * Required-field pass conditions per field type (spec 000 §5 "Pass conditions"). Each check takes the
 * field's typed value; a stored value `{type, value_replace, value_simple, value}` is also accepted and
 * its `value` is checked (text types check the display text `value_replace` as well).
 */

import { parseDecimal } from './number.js'

/** The product's own field type (spec 000 §3 lists it as {product}). */
export const PRODUCT_FIELD_TYPE = 'tramita'

export interface RequiredOptions {
  /** ref.limit of a file field: files it must hold exactly when above 0. */
  limit?: number | null
}

type StoredValue = { value_replace: unknown; value?: unknown }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isStoredValue = (value: unknown): value is StoredValue => isObject(value) && 'value_replace' in value

const unwrap = (value: unknown): unknown => (isStoredValue(value) ? value.value : value)

// Whitespace alone does not fill a field.
const isFilledText = (value: unknown): boolean =>
  (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && !Number.isNaN(value))

const hasPath = (entry: unknown): boolean =>
  (typeof entry === 'string' && entry.trim() !== '') || (isObject(entry) && isFilledText(entry.path))

/**
 * Generic non-empty test, used for the product's own type, user/area/role/machine selectors and unknown
 * types: not null, blank text, NaN, an empty array, an invalid date or an object without keys. false is a value.
 */
export function isNonEmpty(value: unknown): boolean {
  const v = unwrap(value)
  if (v === null || v === undefined) return false
  if (typeof v === 'string') return v.trim() !== ''
  if (typeof v === 'number') return !Number.isNaN(v)
  if (Array.isArray(v)) return v.length > 0
  if (v instanceof Date) return !Number.isNaN(v.getTime())
  if (typeof v === 'object') return Object.keys(v).length > 0
  return true
}

/** Text, textarea and e-mail pass with a non-empty value and, for a stored value, non-empty display text too. */
export function hasTextValue(value: unknown): boolean {
  if (isStoredValue(value)) return isFilledText(value.value) && isFilledText(value.value_replace)
  return isFilledText(value)
}

/** Number and money pass when non-empty and a number (not NaN); numeric text counts. */
export function hasNumberValue(value: unknown): boolean {
  const v = unwrap(value)
  if (typeof v === 'number') return !Number.isNaN(v)
  return typeof v === 'string' && parseDecimal(v) !== null
}

/** Celular passes when its value `{code, value, string}` has a non-empty `string`. */
export function hasPhoneValue(value: unknown): boolean {
  const v = unwrap(value)
  return isObject(v) && typeof v.string === 'string' && v.string.trim() !== ''
}

/** Select, list and radios pass with a non-empty array, a number (an id) or non-empty text. */
export function hasChoiceValue(value: unknown): boolean {
  const v = unwrap(value)
  if (Array.isArray(v)) return v.length > 0
  return isFilledText(v)
}

/**
 * Date and time pass when non-empty: text, a valid Date, or an array (range or multiple) with entries
 * that are all filled, since half a range is not an answer.
 */
export function hasDateValue(value: unknown): boolean {
  const v = unwrap(value)
  const filled = (entry: unknown) => isFilledText(entry) || (entry instanceof Date && !Number.isNaN(entry.getTime()))
  if (Array.isArray(v)) return v.length > 0 && v.every(filled)
  return filled(v)
}

/** Signature passes when its value `{path, date, ip, device}` has a path. */
export function hasSignatureValue(value: unknown): boolean {
  const v = unwrap(value)
  return isObject(v) && hasPath(v)
}

/** Image passes with a path, either on its value `{ext, path, real_name, status}` or on every entry of a non-empty list. */
export function hasImageValue(value: unknown): boolean {
  const v = unwrap(value)
  if (Array.isArray(v)) return v.length > 0 && v.every(hasPath)
  return hasSignatureValue(v)
}

/** Level (rating) passes with a value of at least 0; its default -1 means not rated. */
export function hasLevelValue(value: unknown): boolean {
  const v = unwrap(value)
  const n = typeof v === 'number' ? v : typeof v === 'string' ? parseDecimal(v) : null
  return n !== null && n >= 0
}

/**
 * File passes with exactly `limit` uploaded files when the limit is above 0, else with at least one.
 * Only entries with a path (finished uploads) are counted.
 */
export function hasFileCount(value: unknown, limit?: number | null): boolean {
  const v = unwrap(value)
  const count = Array.isArray(v) ? v.filter(hasPath).length : 0
  return typeof limit === 'number' && limit > 0 ? count === limit : count >= 1
}

/** Checkbox and switch pass only when the value is true. */
export function isChecked(value: unknown): boolean {
  return unwrap(value) === true
}

/** Table passes with a non-empty array of rows. */
export function hasTableRows(value: unknown): boolean {
  const v = unwrap(value)
  return Array.isArray(v) && v.length > 0
}

/**
 * Whether a required field of the given type passes (spec 000 §5 "Pass conditions"). Radio always
 * passes; the product's own type, user/area/role/machine selectors and unknown types need a non-empty value.
 */
export function passesRequired(type: string, value: unknown, options: RequiredOptions = {}): boolean {
  switch (type) {
    case 'text':
    case 'textarea':
    case 'email':
      return hasTextValue(value)
    case 'number':
    case 'money':
      return hasNumberValue(value)
    case 'celular':
      return hasPhoneValue(value)
    case 'select':
    case 'list':
    case 'radios':
      return hasChoiceValue(value)
    case 'date':
    case 'time':
      return hasDateValue(value)
    case 'image':
      return hasImageValue(value)
    case 'signature':
      return hasSignatureValue(value)
    case 'level':
      return hasLevelValue(value)
    case 'file':
      return hasFileCount(value, options.limit)
    case 'checkbox':
    case 'switch':
      return isChecked(value)
    case 'radio':
      return true
    case 'table':
      return hasTableRows(value)
    default:
      return isNonEmpty(value)
  }
}
