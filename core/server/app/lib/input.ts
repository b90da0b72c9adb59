import type { HttpContext } from '@adonisjs/core/http'
import { CallFailure } from '#lib/envelope'
import { message } from '#lib/messages'
import { type JsonProblem, MAX_JSON_CHARS, MAX_JSON_DEPTH, parseJsonText } from '#lib/json_input'

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

/**
 * A JSON field: already an object in a JSON body (its depth checked by the body's middleware), or
 * text to parse in form-data. Missing is undefined (or refused when required); malformed, oversized
 * or too deeply nested text is refused with its name.
 */
export function jsonField(ctx: HttpContext, name: string, required: boolean): unknown {
  const raw = ctx.request.input(name)
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw new CallFailure(message(ctx, 'auth.field_required', { field: name }), 400)
    return undefined
  }
  return typeof raw === 'string' ? jsonText(ctx, name, raw) : raw
}

/** A JSON text within the bounds of lib/json_input.ts, or a refusal naming the field. */
export function jsonText(ctx: HttpContext, name: string, text: string, maxChars = MAX_JSON_CHARS): unknown {
  const parsed = parseJsonText(text, maxChars)
  if (parsed.ok) return parsed.value
  throw jsonRefusal(ctx, name, parsed.problem)
}

export function jsonRefusal(ctx: HttpContext, name: string, problem: JsonProblem): CallFailure {
  if (problem === 'too_large') return new CallFailure(message(ctx, 'engine.too_large', { field: name }), 413)
  if (problem === 'too_deep') {
    return new CallFailure(message(ctx, 'engine.too_deep', { field: name, max: MAX_JSON_DEPTH }), 400)
  }
  return new CallFailure(message(ctx, 'engine.bad_json', { field: name }), 400)
}
