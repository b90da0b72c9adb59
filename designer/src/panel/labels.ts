/**
 * Names of schema keys in the designer's language. A key may be named for where it sits
 * (`panel.keys.ref_limit`, the characters allowed, is not `panel.keys.limit`, a number's bounds), else
 * by itself (`panel.keys.placeholder`); a key no text names shows as itself (a plugin's key).
 */
import type { PathKey } from './schema_nodes.js'

/** Keys that only say where the others are: skipped when naming by the parent. */
const TRANSPARENT = new Set(['data'])

/**
 * The text ids that may name the key at `path` (or, with `section` 'hints', explain it), most
 * specific first: a custom message's `messages_pattern` before the pattern's own `pattern`.
 */
export function labelIds(path: readonly PathKey[], section: 'keys' | 'hints' = 'keys'): string[] {
  const keys = path.filter((key): key is string => typeof key === 'string' && !/^\d+$/.test(key))
  const key = keys[keys.length - 1]
  if (key === undefined) return []
  const parent = keys
    .slice(0, -1)
    .reverse()
    .find((k) => !TRANSPARENT.has(k))
  return parent ? [`panel.${section}.${parent}_${key}`, `panel.${section}.${key}`] : [`panel.${section}.${key}`]
}

/** The text ids that may name a choice of a select (`panel.options.natural_readonly`, `panel.options.left`). */
export function optionIds(key: string, option: string | number): string[] {
  return [`panel.options.${key}_${option}`, `panel.options.${option}`]
}

export interface Texts {
  exists(id: string): boolean
  t(id: string): string
}

/** The first text that exists, else the fallback. */
export function firstText(texts: Texts, ids: readonly string[], fallback: string): string {
  const found = ids.find((id) => texts.exists(id))
  return found ? texts.t(found) : fallback
}

/** The name of the key at `path` in the page's language, or the key itself. */
export function keyLabel(texts: Texts, path: readonly PathKey[]): string {
  const last = [...path].reverse().find((key) => typeof key === 'string' && !/^\d+$/.test(key))
  return firstText(texts, labelIds(path), String(last ?? ''))
}

/** The name of a select's choice, or the choice itself. */
export const optionLabel = (texts: Texts, key: string, option: string | number): string =>
  firstText(texts, optionIds(key, option), String(option))
