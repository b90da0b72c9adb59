import type { HttpContext } from '@adonisjs/core/http'
import { CallFailure } from '#lib/envelope'
import { message } from '#lib/messages'

/**
 * Reading the spec's form fields safely: a field must be one string (two fields of the same name
 * arrive as a list and are refused) no longer than `max` characters.
 */
export function field(ctx: HttpContext, name: string, opts: { max?: number; required?: boolean } = {}): string {
  const raw = ctx.request.input(name)
  const max = opts.max ?? 1000
  if (raw === undefined || raw === null || raw === '') {
    if (opts.required === false) return ''
    throw new CallFailure(message(ctx, 'auth.field_required', { field: name }), 400)
  }
  const value = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw
  if (typeof value !== 'string' || [...value].length > max) {
    throw new CallFailure(message(ctx, 'auth.field_invalid', { field: name }), 400)
  }
  return value
}

export function optionalField(ctx: HttpContext, name: string, max = 1000): string | null {
  return field(ctx, name, { max, required: false }) || null
}

/** A positive integer id from a route parameter or a field. */
export function idValue(ctx: HttpContext, value: unknown, name = 'id'): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < 1) throw new CallFailure(message(ctx, 'auth.field_invalid', { field: name }), 400)
  return n
}

/** A boolean field: true/false, 1/0, on/off (refused otherwise). */
export function boolField(ctx: HttpContext, name: string): boolean {
  const raw = ctx.request.input(name)
  if (raw === true || raw === false) return raw
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().toLowerCase() : ''
  if (['true', '1', 'on', 'yes'].includes(text)) return true
  if (['false', '0', 'off', 'no'].includes(text)) return false
  throw new CallFailure(message(ctx, 'auth.field_invalid', { field: name }), 400)
}

/** Largest JSON document a field may carry (a form definition, a case's values). */
const MAX_JSON_CHARS = 5_000_000

/**
 * A JSON field: already an object in a JSON body, or text to parse in form-data. Missing is
 * undefined (or refused when required); malformed or oversized text is refused with its name.
 */
export function jsonField(ctx: HttpContext, name: string, required: boolean): unknown {
  const raw = ctx.request.input(name)
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw new CallFailure(message(ctx, 'auth.field_required', { field: name }), 400)
    return undefined
  }
  if (typeof raw !== 'string') return raw
  if (raw.length > MAX_JSON_CHARS) throw new CallFailure(message(ctx, 'engine.too_large', { field: name }), 413)
  try {
    return JSON.parse(raw)
  } catch {
    throw new CallFailure(message(ctx, 'engine.bad_json', { field: name }), 400)
  }
}
