/**
 * Pure helpers of the date, time and people renderers: time parts, date texts, the people pickers'
 * value shape (the choice renderers' are in options.ts: those load with the form, these with the first
 * form that has such a field). The form rules themselves live in @tramita/contract. No DOM and no
 * React here, so runtime-web/tests runs them in Node.
 */
import type { PeopleOption } from '../../types.js'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export type DateType = 'date' | 'datetime' | 'month' | 'year'

/** The native input for a date_type (a year is typed as a 4-digit number). */
export function dateInputType(dateType: DateType): 'date' | 'datetime-local' | 'month' | 'number' {
  return dateType === 'datetime' ? 'datetime-local' : dateType === 'year' ? 'number' : dateType
}

/**
 * A range value from its two ends: [from, to] once both are given (swapped when typed backwards;
 * the ISO texts sort as their dates), else [] (the contract accepts only two ends or none).
 */
export function rangeValue(from: string, to: string): string[] {
  if (from === '' || to === '') return []
  return from <= to ? [from, to] : [to, from]
}

/** Adds a date or time to a multiple value: once each, kept in order. */
export function addEntry(list: readonly string[], entry: string): string[] {
  if (entry === '' || list.includes(entry)) return [...list]
  return [...list, entry].sort()
}

export interface TimeParts {
  h: number
  m: number
  s: number
}

/** Reads 'HH:mm' or 'HH:mm:ss'; null for anything else. */
export function parseTime(text: string): TimeParts | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(text)
  if (!match) return null
  return { h: Number(match[1]), m: Number(match[2]), s: Number(match[3] ?? 0) }
}

const two = (n: number) => String(n).padStart(2, '0')

/** 'HH:mm' or, with seconds shown, 'HH:mm:ss' (the contract's TIME shape). */
export function formatTime(parts: TimeParts, seconds: boolean): string {
  return `${two(parts.h)}:${two(parts.m)}${seconds ? `:${two(parts.s)}` : ''}`
}

/** 24-hour hour → 12-hour clock hour (1–12) and whether it is after noon. */
export function to12h(hour: number): { hour: number; pm: boolean } {
  return { hour: hour % 12 === 0 ? 12 : hour % 12, pm: hour >= 12 }
}

/** 12-hour clock hour (1–12) and half of the day → 24-hour hour. */
export function from12h(hour: number, pm: boolean): number {
  return (hour % 12) + (pm ? 12 : 0)
}

// ── people pickers ─────────────────────────────────────────────────────────────

export type PeopleKind = 'users' | 'areas' | 'roles' | 'machines'

/** The id of a picked entry as the contract's people value holds it (code, id or token). */
export function peopleIdOf(kind: PeopleKind, entry: Record<string, unknown>): string {
  const id =
    kind === 'users' ? entry.code : kind === 'machines' ? (entry.token ?? entry.code) : (entry.id ?? entry.code)
  return String(id ?? '')
}

/** What a picked entry shows: a user's label, an area's or role's name, a machine's model and place. */
export function peopleLabelOf(kind: PeopleKind, entry: Record<string, unknown>): string {
  if (kind === 'machines' && entry.model !== undefined)
    return `${String(entry.model)} (${String(entry.ubication ?? '')})`
  return String(entry.label ?? entry.name ?? peopleIdOf(kind, entry))
}

const ids = (list: unknown): (string | number)[] =>
  Array.isArray(list) ? list.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number') : []

/**
 * One picked option in the shape of the contract's people value (types/people.ts; the schemas allow
 * no other keys): users {code, label, photo?, allData?}, areas {id, name, color?}, roles {id, name},
 * machines {token, ubication, model, ip, trays}.
 */
export function peopleValueOf(kind: PeopleKind, option: PeopleOption): Record<string, unknown> {
  switch (kind) {
    case 'users': {
      const out: Record<string, unknown> = { code: option.code, label: option.label }
      if (typeof option.photo === 'string' && option.photo !== '') out.photo = option.photo
      if (option.allData) out.allData = { areas: ids(option.allData.areas), rol_user: ids(option.allData.rol_user) }
      return out
    }
    case 'areas':
      return { id: option.code, name: option.label, ...(option.color ? { color: option.color } : {}) }
    case 'roles':
      return { id: option.code, name: option.label }
    case 'machines': {
      const trays = Array.isArray(option.trays) ? option.trays : []
      return {
        token: String(option.token ?? option.code),
        ubication: String(option.ubication ?? ''),
        model: String(option.model ?? option.label),
        ip: String(option.ip ?? ''),
        trays: trays.filter(isObject).map((tray) => ({ ...tray, name: String(tray.name ?? '') })),
      }
    }
  }
}

/**
 * A date value as words for the inline presentation ('martes, 3 de marzo de 2026'); the text itself
 * when it is not a date of that type.
 */
export function formatDateText(text: string, dateType: DateType, locale: string): string {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}))?)?)?$/.exec(text)
  if (!match || dateType === 'year') return text
  const [, y, m, d, hh, mm] = match
  const date = new Date(Number(y), Number(m ?? 1) - 1, Number(d ?? 1), Number(hh ?? 0), Number(mm ?? 0))
  if (Number.isNaN(date.getTime())) return text
  const options: Intl.DateTimeFormatOptions =
    dateType === 'month'
      ? { year: 'numeric', month: 'long' }
      : dateType === 'datetime'
        ? { dateStyle: 'full', timeStyle: 'short' }
        : { dateStyle: 'full' }
  try {
    return new Intl.DateTimeFormat(locale, options).format(date)
  } catch {
    return text
  }
}
