/** Small conversions of source values both importers need: texts, masks, file types, sizes. */
import { GRID_COLUMNS } from '../constants.js'
import { LANGUAGES } from '@tramita/i18n'
import { isObject, type DraftItem } from './types.js'

/** A text, or a locale map ({default, es, en, ...}): Spanish first, then default, then the first one. */
export function pickText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (!isObject(value)) return ''
  for (const key of ['es', 'default']) {
    if (typeof value[key] === 'string') return value[key]
  }
  return (Object.values(value).find((v) => typeof v === 'string') as string | undefined) ?? ''
}

/**
 * Keeps, as the item's translations of `key`, what a locale map gives in our languages besides the
 * text picked (`shown`). The map's `default` is in the source's own locale (SurveyJS: English unless
 * the survey sets `locale`).
 */
export function keepTranslations(item: DraftItem, key: string, value: unknown, shown: string, locale = 'en'): void {
  if (!isObject(value)) return
  const own = locale.slice(0, 2).toLowerCase()
  for (const language of LANGUAGES) {
    const text = value[language] ?? (language === own ? value.default : undefined)
    if (typeof text !== 'string' || text === '' || text === shown) continue
    ;((item.translations ??= {})[language] ??= {})[key] = text
  }
}

/** Our mask tokens (`#` digit, `S` letter, `X` either, `A`/`a` cased letter, `!` escape). */
const OUR_TOKENS = new Set(['#', 'S', 'X', 'A', 'a', '!'])

/**
 * A Form.io or SurveyJS input mask in our alphabet: `9` digit and `a` letter in both, `*` (Form.io)
 * or `#` (SurveyJS) a letter or digit; `\` escapes in SurveyJS. Literal characters that are our
 * tokens are escaped with `!`.
 */
export function convertMask(mask: string, alphanumeric: '*' | '#'): string {
  let out = ''
  for (let i = 0; i < mask.length; i++) {
    const ch = mask[i]!
    if (ch === '\\' && alphanumeric === '#' && i + 1 < mask.length) {
      const literal = mask[++i]!
      out += OUR_TOKENS.has(literal) ? `!${literal}` : literal
    } else if (ch === '9') out += '#'
    else if (ch === 'a') out += 'S'
    else if (ch === alphanumeric) out += 'X'
    else out += OUR_TOKENS.has(ch) ? `!${ch}` : ch
  }
  return out
}

/** Extensions of an accept list (".pdf, *.jpg, image/*"); what is not an extension is returned apart. */
export function splitAccept(accept: string): { ext: string[]; other: string[] } {
  const ext: string[] = []
  const other: string[] = []
  for (const entry of accept.split(/[,\s]+/).filter(Boolean)) {
    const match = /^\*?\.([A-Za-z0-9]+)$/.exec(entry)
    if (match) ext.push(match[1]!.toLowerCase())
    else if (entry !== '*' && entry !== '*.*') other.push(entry)
  }
  return { ext, other }
}

/** Pixels from 150, '150' or '150px'; undefined for anything else ('100%'). */
export function pixels(value: unknown): number | undefined {
  if (typeof value === 'number' && value >= 0) return value
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/.exec(value) : null
  return match ? Number(match[1]) : undefined
}

/** Grid columns (1..12) for a share of a row, given as a part of `whole`. */
export function gridColumns(part: number, whole: number): number {
  return Math.min(GRID_COLUMNS, Math.max(1, Math.round((part * GRID_COLUMNS) / whole)))
}

/** A JSON Pointer segment (RFC 6901). */
export const pointer = (key: string | number): string => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`

/** The value at a dotted path (validate.maxLength). */
export function at(source: unknown, path: string): unknown {
  let value: unknown = source
  for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined
  return value
}
