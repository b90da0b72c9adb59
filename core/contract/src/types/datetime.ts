/** date and time (spec 000 §3): single, range ('desde el X hasta el Y') or multiple (joined by ', '). */
import * as Type from '../schema/type.js'
import { defineFieldType, type ValueContext } from '../registry.js'
import { contractText } from '../messages.js'
import { passesRequired } from '../rules/index.js'
import { isBlank } from './shared.js'

const DATE = /^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?)?)?$|^\d{4}$/
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/

/** A date value: 'YYYY-MM-DD' (or month, year, date-time by date_type), a [from, to] range, or a list. */
const Dates = Type.Union([Type.String(), Type.Array(Type.String())])

function storedDates(range: boolean, value: string | string[], ctx: ValueContext, rangeKey: string) {
  if (isBlank(value)) return { value_replace: '', value_simple: '' }
  if (!Array.isArray(value)) return { value_replace: value, value_simple: value }
  if (range && value.length === 2) {
    return {
      value_replace: contractText(ctx, rangeKey, { from: value[0], to: value[1] }),
      value_simple: JSON.stringify(value),
    }
  }
  return { value_replace: value.join(', '), value_simple: JSON.stringify(value) }
}

/** A day that exists in the calendar (2024-02-30 does not). */
function realDay(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number)
  if (d === undefined) return true
  const date = new Date(Date.UTC(y!, m! - 1, d))
  return date.getUTCMonth() === m! - 1 && date.getUTCDate() === d
}

function badEntries(value: string | string[], pattern: RegExp, key: string, ctx: ValueContext): string[] {
  const list = Array.isArray(value) ? value : value === '' ? [] : [value]
  return list
    .filter((v) => !pattern.test(v) || (pattern === DATE && !realDay(v)))
    .map((v) => contractText(ctx, key, { value: v }))
}

export const dateType = defineFieldType({
  type: 'date',
  data: {
    date_type: Type.Union(
      [Type.Literal('date'), Type.Literal('datetime'), Type.Literal('month'), Type.Literal('year')],
      {
        default: 'date',
      }
    ),
    range: Type.Boolean({ default: false }),
    multiple: Type.Boolean({ default: false }),
    inline: Type.Boolean({ default: false }),
  },
  value: Dates,
  defaultValue: (item) => (item.data.range || item.data.multiple ? [] : ''),
  stored: (item, value, ctx) => storedDates(item.data.range, value, ctx, 'date_range'),
  required: (_item, value) => passesRequired('date', value),
  validate: (item, value, ctx) => {
    const problems = badEntries(value, DATE, 'errors.date', ctx)
    if (item.data.range && Array.isArray(value) && value.length !== 0 && value.length !== 2) {
      problems.push(contractText(ctx, 'errors.date', { value: value.join(', ') }))
    }
    return problems
  },
})

export const timeType = defineFieldType({
  type: 'time',
  data: {
    range: Type.Boolean({ default: false }),
    inline: Type.Boolean({ default: false }),
    /** Which parts the picker shows: hours, minutes, seconds. */
    see: Type.Object(
      { h: Type.Boolean({ default: true }), m: Type.Boolean({ default: true }), s: Type.Boolean({ default: false }) },
      { additionalProperties: false, default: {} }
    ),
    /** 12-hour clock. */
    useh: Type.Boolean({ default: false }),
  },
  value: Dates,
  defaultValue: (item) => (item.data.range ? [] : ''),
  stored: (item, value, ctx) => storedDates(item.data.range, value, ctx, 'time_range'),
  required: (_item, value) => passesRequired('time', value),
  validate: (_item, value, ctx) => badEntries(value, TIME, 'errors.time', ctx),
})
