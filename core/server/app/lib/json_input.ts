/**
 * The bounds every JSON document from a request is held to, as text (a form-data field) or as the
 * value a JSON body already parsed into. A form's definition is about a dozen levels deep; deeper
 * input only reaches recursive code later (schema checks, structured clone to the sandbox) and
 * would overflow its stack, so it is refused here, before anything walks it.
 */
export const MAX_JSON_DEPTH = 64
/** Largest JSON text a field may carry (a form definition, a case's values). */
export const MAX_JSON_CHARS = 5_000_000

export type JsonProblem = 'bad_json' | 'too_large' | 'too_deep'
export type JsonParsed = { ok: true; value: unknown } | { ok: false; problem: JsonProblem }

/** Whether a JSON text nests arrays and objects deeper than `max` (brackets inside strings skipped). */
export function textTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/** Whether a parsed value nests deeper than `max`; a loop with its own stack, so depth cannot overflow it. */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth + 1 > max) return true
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** Parses a JSON text within the bounds, or names what is wrong with it. */
export function parseJsonText(text: string, maxChars = MAX_JSON_CHARS): JsonParsed {
  if (text.length > maxChars) return { ok: false, problem: 'too_large' }
  if (textTooDeep(text)) return { ok: false, problem: 'too_deep' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, problem: 'bad_json' }
  }
}

/** The first field of a parsed body whose value nests too deep, or null (each field is held to the bound). */
export function tooDeepField(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  for (const [key, value] of Object.entries(body)) {
    if (valueTooDeep(value)) return key
  }
  return null
}
