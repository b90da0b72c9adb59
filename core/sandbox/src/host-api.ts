/**
 * Host functions scripts call by name: the formatting helpers (QuickJS has no Intl, so they run on
 * the host's) and any `options.host` functions. Arguments and results cross as JSON text.
 */
import type { HostFunction, Json } from './types.ts'
import { SANDBOX_GLOBALS } from './globals.ts'

const DEFAULT_LOCALE = 'es-CO'
const DEFAULT_CURRENCY = 'COP'
const DEFAULT_DATE_PATTERN = 'YYYY/MM/DD HH:mm:ss'

// Intl constructors are slow; scripts choose the keys, so the cache is bounded.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formatters.get(key) as T | undefined
  if (!f) {
    if (formatters.size >= 64) formatters.clear()
    formatters.set(key, (f = make()))
  }
  return f
}

function toNumber(n: Json): number {
  const x = typeof n === 'number' ? n : Number(n)
  if (Number.isNaN(x) && n !== 'NaN') throw new TypeError(`not a number: ${JSON.stringify(n)}`)
  return x
}

export function formatNumber(n: Json, decimals?: Json, locale?: Json): string {
  const digits = decimals === undefined || decimals === null ? undefined : Number(decimals)
  const loc = typeof locale === 'string' ? locale : DEFAULT_LOCALE
  const options = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }
  return cached(`n|${loc}|${digits}`, () => new Intl.NumberFormat(loc, options)).format(toNumber(n))
}

export function formatMoney(n: Json, locale?: Json, currency?: Json): string {
  const loc = typeof locale === 'string' ? locale : DEFAULT_LOCALE
  const cur = typeof currency === 'string' ? currency : DEFAULT_CURRENCY
  return cached(`m|${loc}|${cur}`, () => new Intl.NumberFormat(loc, { style: 'currency', currency: cur })).format(
    toNumber(n)
  )
}

const TOKENS = /\[([^\]]*)]|YYYY|YY|SSS|MM|M|DD|D|HH|H|hh|h|mm|m|ss|s|A|a/g

/**
 * `value` is a timestamp in ms or a date string; the pattern uses YYYY YY MM M DD D HH H hh h mm m
 * ss s SSS A a, and [text] for literal text. Fields are read in `timeZone` (default: the host's).
 */
export function formatDate(value: Json, pattern?: Json, timeZone?: Json): string {
  const date = new Date(typeof value === 'number' ? value : String(value))
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  const zone = typeof timeZone === 'string' ? timeZone : undefined
  const parts = cached(
    `d|${zone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
  ).formatToParts(date)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map(part)
  const two = (x: number) => String(x).padStart(2, '0')
  const hour12 = hour % 12 === 0 ? 12 : hour % 12
  const text: Record<string, string> = {
    YYYY: String(year).padStart(4, '0'),
    YY: two(year % 100),
    MM: two(month),
    M: String(month),
    DD: two(day),
    D: String(day),
    HH: two(hour),
    H: String(hour),
    hh: two(hour12),
    h: String(hour12),
    mm: two(minute),
    m: String(minute),
    ss: two(second),
    s: String(second),
    SSS: String(date.getUTCMilliseconds()).padStart(3, '0'),
    A: hour < 12 ? 'AM' : 'PM',
    a: hour < 12 ? 'am' : 'pm',
  }
  const format = typeof pattern === 'string' ? pattern : DEFAULT_DATE_PATTERN
  return format.replace(TOKENS, (token, literal: string | undefined) => literal ?? text[token]!)
}

export const BUILTIN_HOST: Record<string, HostFunction> = {
  formatNumber: formatNumber as HostFunction,
  formatMoney: formatMoney as HostFunction,
  formatDate: formatDate as HostFunction,
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** Refuses host names a script could not call by name or that would hide a built-in. */
export function checkHostNames(host: Record<string, HostFunction> = {}): string[] {
  const names = Object.keys(host)
  for (const name of names) {
    if (!IDENTIFIER.test(name) || SANDBOX_GLOBALS.has(name) || typeof host[name] !== 'function') {
      throw new TypeError(`host function '${name}' must be a function named by a new identifier`)
    }
  }
  return names
}

/** The one host function QuickJS calls: `(name, argsJson) => '{"v":result}' | '{"e":message}'`. */
export function hostBridge(extra: Record<string, HostFunction> = {}): (name: string, args: string) => string {
  const fns: Record<string, HostFunction> = { ...BUILTIN_HOST, ...extra }
  return (name, args) => {
    try {
      const fn = Object.hasOwn(fns, name) ? fns[name]! : undefined
      if (!fn) throw new ReferenceError(`no host function '${name}'`)
      const v = fn(...(JSON.parse(args) as Json[]))
      return JSON.stringify({ v: v === undefined ? null : v })
    } catch (error) {
      return JSON.stringify({ e: error instanceof Error ? error.message : String(error) })
    }
  }
}
