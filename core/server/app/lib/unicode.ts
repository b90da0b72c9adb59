/** A UTF-16 surrogate without its pair: what a text cut in the middle of an emoji (or a crafted JSON escape) holds. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * The value with every lone surrogate in its strings (keys included) replaced by U+FFFD. MariaDB's JSON
 * columns refuse `"\ud83d"` (CHECK json_valid), so what a caller sent is made well-formed before it
 * is stored as JSON.
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD') as T
  if (Array.isArray(value)) return value.map((v) => wellFormed(v)) as T
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)])) as T
  }
  return value
}

/** The first `max` characters (code points, so no emoji is cut in two). */
export function firstChars(text: string, max: number): string {
  return [...text].slice(0, max).join('')
}
