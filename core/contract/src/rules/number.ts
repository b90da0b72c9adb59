/**
 * Number and money field rules (spec 000 §3 number/money settings, §5 "Number"): bounds where a
 * negative value means "no bound", clamping, decimal truncation and normalisation of typed input.
 */

/** Default count of digits after the point when decimals are enabled (spec 000 §3, §9: significant 2). */
export const DEFAULT_SIGNIFICANT_DECIMALS = 2

/** ref.limit of a number field as stored: a negative (or missing) end is no bound. */
export interface NumberLimit {
  min?: number | null
  max?: number | null
}

/** The decimals setting of a number or money field. */
export interface DecimalsSetting {
  enabled?: boolean
  significant?: number | null
}

export interface NumberBounds {
  min: number | null
  max: number | null
}

const bound = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null

/** The bounds in force for a number field (spec 000 §5 "Number"): a negative, missing or non-finite end means no bound. */
export function numberBounds(limit: NumberLimit = {}): NumberBounds {
  return { min: bound(limit.min), max: bound(limit.max) }
}

/**
 * Clamps a number into the field's range (spec 000 §5 "Number"). When a designer sets min above max,
 * the max is applied last and wins, so the result never exceeds the max.
 */
export function clampNumber(n: number, limit: NumberLimit = {}): number {
  const { min, max } = numberBounds(limit)
  let out = n
  if (min !== null && out < min) out = min
  if (max !== null && out > max) out = max
  return out
}

/** Writes a finite number as plain decimal digits, expanding exponent notation (1e-7 → 0.0000001). */
export function toPlainDecimal(n: number): string {
  const text = String(n)
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, whole, fraction = '', exp] = match
  const digits = whole! + fraction
  const point = whole!.length + Number(exp)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** How many digits after the point the decimals setting keeps: 0 when off, `significant` (default 2) when on. */
export function allowedDecimals(decimals?: DecimalsSetting | null): number {
  if (!decimals?.enabled) return 0
  const significant = decimals.significant
  if (typeof significant !== 'number' || !Number.isFinite(significant) || significant < 0) {
    return DEFAULT_SIGNIFICANT_DECIMALS
  }
  // 100 is the most toFixed-style precision any engine supports; more is meaningless for a double.
  return Math.min(100, Math.floor(significant))
}

/**
 * Truncates (never rounds) to the configured decimals (spec 000 §5 "Number"): `significant` digits
 * after the point (default 2) when decimals are enabled, an integer when they are off. Works on the
 * decimal text of the number so binary floating point cannot push 1.005 up to 1.01 or 0.29 down to 0.28.
 */
export function truncateDecimals(n: number, decimals?: DecimalsSetting | null): number {
  if (!Number.isFinite(n)) return n
  const keep = allowedDecimals(decimals)
  const plain = toPlainDecimal(n)
  const point = plain.indexOf('.')
  const cut = point === -1 ? plain : keep === 0 ? plain.slice(0, point) : plain.slice(0, point + 1 + keep)
  const out = Number(cut)
  // -0.001 truncates to -0; a field should show 0.
  return out === 0 ? 0 : out
}

/**
 * Parses typed decimal text: optional sign, digits with one decimal point (a lone comma is read as the
 * point, as es-CO users type it), optional exponent. Hex, 'Infinity' and grouping separators are not numbers.
 */
export function parseDecimal(text: string): number | null {
  let t = text.trim()
  if (t.includes(',') && !t.includes('.') && t.indexOf(',') === t.lastIndexOf(',')) t = t.replace(',', '.')
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

export interface NumberInputOptions {
  limit?: NumberLimit | null
  decimals?: DecimalsSetting | null
  /** A money field: empty or non-numeric input becomes 0 instead of ''. */
  money?: boolean
}

/**
 * Normalises what a user typed into a number or money field (spec 000 §5 "Number"): parse, clamp to
 * the range, truncate to the configured decimals. Empty or non-numeric input gives '' for a number
 * field and 0 for money (that 0 is the spec's placeholder and is returned as is, not clamped).
 */
export function normalizeNumberInput(raw: unknown, options: NumberInputOptions = {}): number | '' {
  let n: number | null = null
  if (typeof raw === 'number') n = Number.isFinite(raw) ? raw : null
  else if (typeof raw === 'string') n = parseDecimal(raw)
  if (n === null) return options.money ? 0 : ''
  return truncateDecimals(clampNumber(n, options.limit ?? {}), options.decimals)
}
