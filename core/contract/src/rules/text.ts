/**
 * Text-field rules (spec 000 §5 "Text", "E-mail fields"; spec 001 §5 public-link form):
 * masks, length limit and counter, pattern check, autocomplete suggestions, e-mail and phone.
 */

/** How one mask token accepts a character and what it turns it into. */
interface MaskToken {
  accepts: (char: string) => boolean
  transform?: (char: string) => string
}

const isDigit = (char: string) => /^[0-9]$/.test(char)
const isLetter = (char: string) => /^\p{L}$/u.test(char)

/** Changes case only when the result stays one character, so a masked value never outgrows its mask ('ß' → 'SS'). */
const sameLength = (char: string, changed: string) => ([...changed].length === 1 ? changed : char)

/** The mask alphabet (the vue-the-mask convention). '!' is handled apart: it makes the next character a literal. */
export const MASK_TOKENS: Readonly<Record<string, MaskToken>> = {
  '#': { accepts: isDigit },
  X: { accepts: (char) => isDigit(char) || isLetter(char) },
  S: { accepts: isLetter },
  A: { accepts: isLetter, transform: (char) => sameLength(char, char.toUpperCase()) },
  a: { accepts: isLetter, transform: (char) => sameLength(char, char.toLowerCase()) },
}

const MASK_ESCAPE = '!'

/** One position of a parsed mask: a token to fill, or a literal the mask writes itself. */
type MaskSlot = { token: MaskToken } | { literal: string }

/** Splits a mask into slots, resolving '!' escapes (a trailing '!' escapes nothing and is ignored). */
function maskSlots(mask: string): MaskSlot[] {
  const chars = [...mask]
  const slots: MaskSlot[] = []
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!
    if (char === MASK_ESCAPE) {
      i++
      if (i < chars.length) slots.push({ literal: chars[i]! })
      continue
    }
    const token = Object.hasOwn(MASK_TOKENS, char) ? MASK_TOKENS[char]! : undefined
    slots.push(token ? { token } : { literal: char })
  }
  return slots
}

/**
 * Applies a text mask (spec 000 §3 ref.mask, §5 "Text"): `#` digit, `X` letter or digit, `S` letter,
 * `A` letter upper-cased, `a` letter lower-cased, `!` escapes the next character; any other mask
 * character is a literal inserted automatically (or consumed when the user typed it). Characters that
 * do not fit are dropped and input past the end of the mask is ignored. Literals that end the mask are
 * added once every token is filled, so `(##)` turns `12` into `(12)`. An empty input stays empty;
 * an empty mask leaves the input as it is.
 */
export function applyMask(raw: string, mask: string): string {
  // An empty mask is "no mask" (ref.mask defaults to ''), so the text passes through untouched.
  if (mask === '') return raw
  const input = [...raw]
  if (input.length === 0) return ''
  const slots = maskSlots(mask)
  let out = ''
  let slot = 0
  let pos = 0
  while (slot < slots.length && pos < input.length) {
    const current = slots[slot]!
    const char = input[pos]!
    if ('token' in current) {
      if (current.token.accepts(char)) {
        out += current.token.transform ? current.token.transform(char) : char
        slot++
      }
      pos++
    } else {
      out += current.literal
      // The user may type the literal themselves; it is then used rather than duplicated.
      if (char === current.literal) pos++
      slot++
    }
  }
  // Trailing literals are written only when no token remains to be filled.
  const rest = slots.slice(slot)
  if (rest.every((s) => 'literal' in s)) out += rest.map((s) => ('literal' in s ? s.literal : '')).join('')
  return out
}

/** The number of characters a mask produces at most (its slots; an escape and its character count as one). */
export function maskLength(mask: string): number {
  return maskSlots(mask).length
}

/** Compiles a designer pattern as a whole-value match; null when it does not parse (then there is no pattern). */
export function compilePattern(pattern: string | null | undefined): RegExp | null {
  if (typeof pattern !== 'string' || pattern === '') return null
  try {
    return new RegExp(`^(?:${pattern})$`)
  } catch {
    return null
  }
}

export interface TextRuleOptions {
  /** ref.limit: maximum length; -1, negative, 0 or absent means no limit. */
  limit?: number | null
  /** ref.mask; a mask replaces the limit. */
  mask?: string | null
  /** ref.pattern: a regular-expression source the whole value must match. */
  pattern?: string | null
  /** ref.min_length: the fewest characters a non-empty value may have; 0, negative or absent means none. */
  minLength?: number | null
}

export interface TextCheck {
  valid: boolean
  /** What the field emits on blur: the masked, cut value, or '' when it breaks the pattern. */
  emitted: string
  /** The length limit in force, or null. */
  limit: number | null
  /** `current/limit`, shown only when a limit is in force. */
  counter: string | null
  /** The rule broken: the pattern ('info_invalida', the spec's text) or the minimum length. */
  message: 'info_invalida' | 'min_length' | null
}

/** The length limit in force for a text field: none with a mask, none unless positive. */
export function textLimit(options: Pick<TextRuleOptions, 'limit' | 'mask'>): number | null {
  if (options.mask) return null
  const limit = options.limit
  // 0 is read as "not set" too: a field that accepts no characters would be useless.
  return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : null
}

/** The minimum length in force for a text field, or null when none (0 and negatives are none). */
export function textMinLength(options: Pick<TextRuleOptions, 'minLength'>): number | null {
  const min = options.minLength
  return typeof min === 'number' && Number.isFinite(min) && min > 0 ? Math.floor(min) : null
}

/**
 * What a text field shows while the user types (spec 000 §5 "Text"): the mask applied, then the text
 * cut to the limit in force. Unlike {@link checkText}'s `emitted`, a value breaking the pattern is kept,
 * so the user can go on typing it.
 */
export function shapeText(value: string, options: Pick<TextRuleOptions, 'limit' | 'mask'> = {}): string {
  const limit = textLimit(options)
  const text = options.mask ? applyMask(value, options.mask) : value
  return limit !== null ? [...text].slice(0, limit).join('') : text
}

/**
 * Checks a text value (spec 000 §5 "Text"): the mask is applied, the value is cut to ref.limit
 * (negative means none; a mask removes the limit) with a `current/limit` counter, and a value that
 * breaks ref.pattern is invalid ('info_invalida') and emits ''; so is one shorter than ref.min_length
 * ('min_length'), the pattern being checked first. An empty value is never invalid; a pattern that
 * does not compile counts as no pattern. Lengths count characters, not UTF-16 units.
 */
export function checkText(value: string, options: TextRuleOptions = {}): TextCheck {
  const limit = textLimit(options)
  const text = shapeText(value, options)
  const length = [...text].length
  const counter = limit !== null ? `${length}/${limit}` : null
  const pattern = compilePattern(options.pattern)
  const min = textMinLength(options)
  const message =
    text === ''
      ? null
      : pattern !== null && !pattern.test(text)
        ? 'info_invalida'
        : min !== null && length < min
          ? 'min_length'
          : null
  const valid = message === null
  return { valid, emitted: valid ? text : '', limit, counter, message }
}

/**
 * Autocomplete suggestions for a text field (spec 000 §5 "Text"): the entries that contain the typed
 * text but are not equal to it, ignoring case (accents still count). Typing nothing suggests nothing.
 */
export function autocompleteSuggestions(typed: string, list: readonly string[]): string[] {
  if (typed === '') return []
  const needle = typed.toLowerCase()
  return list.filter((entry) => {
    const hay = String(entry).toLowerCase()
    return hay !== needle && hay.includes(needle)
  })
}

// local@domain.tld: dot-separated atoms without spaces or specials, then letter/digit/hyphen labels and a 2+ letter TLD.
const EMAIL_PATTERN =
  /^[^\s@<>()[\]\\.,;:"]+(?:\.[^\s@<>()[\]\\.,;:"]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u

/** The standard e-mail address pattern (spec 000 §5, 001 §5): something@domain.tld, no spaces. */
export function isEmail(text: string): boolean {
  return typeof text === 'string' && EMAIL_PATTERN.test(text)
}

/** A valid phone has more than this many characters once spaces are removed (spec 001 §5, §9). */
export const PHONE_MIN_EXCLUSIVE_LENGTH = 10

/** Phone check of the public-link form (spec 001 §5): valid only when over 10 characters once spaces are removed. */
export function isPhone(text: string): boolean {
  return typeof text === 'string' && [...text.replace(/\s/g, '')].length > PHONE_MIN_EXCLUSIVE_LENGTH
}
