/**
 * Sets (spec 000 §3: `isSet` / `set` / `idset`, "repeat over another field's value"). A field with
 * `isSet` is drawn once per value of the field named by `set`: a number (number, money, level) gives
 * that many repetitions, ids 1..n; any other field one per value it holds (each chosen option, user,
 * date...), keyed by that value's id, so a repetition keeps its value while others come and go.
 *
 * Each repetition's value is stored under `name[id]` beside the form's fields; the field's own value
 * stays blank (§7 "part of a set are sent blank"). `idset` is the caption of each repetition
 * ("Hijo" shows "Hijo 1", "Hijo 2"); without it the repetition shows its number or the value's label.
 * The runtime and validateSubmission both read the repetitions from here.
 */
import { itemsByName } from './layout.js'
import type { FormConfig, FormItem } from './config.js'

/** At most this many repetitions of one set field, whatever the value it repeats over. */
export const MAX_SET_REPEATS = 50

/** The types whose value is a count of repetitions; every other type repeats once per value held. */
const COUNT_TYPES: ReadonlySet<string> = new Set(['number', 'money', 'level'])

export interface SetRepeat {
  /** The repetition's id: its number (counts) or the value's id. */
  id: string
  /** What the repetition is called: the value's label when it has one, else its id. */
  label: string
}

const KEY = /^([A-Za-z_$][A-Za-z0-9_$]*)\[(.+)\]$/s

/** The key a repetition's value is stored under. */
export function setEntryKey(name: string, id: string): string {
  return `${name}[${id}]`
}

/** The field and repetition a stored key names, or null for a key of no repetition. */
export function parseSetEntryKey(key: string): { name: string; id: string } | null {
  const match = KEY.exec(key)
  return match ? { name: match[1]!, id: match[2]! } : null
}

function entryOf(entry: unknown, options: unknown): SetRepeat | null {
  if (entry === null || entry === undefined || entry === '') return null
  if (typeof entry === 'object') {
    const { id, code, label } = entry as { id?: unknown; code?: unknown; label?: unknown }
    const key = id ?? code
    if (typeof key !== 'string' && typeof key !== 'number') return null
    return { id: String(key), label: typeof label === 'string' && label !== '' ? label : String(key) }
  }
  if (typeof entry !== 'string' && typeof entry !== 'number') return null
  const id = String(entry)
  const option = Array.isArray(options)
    ? (options as { id?: unknown; label?: unknown }[]).find((o) => String(o.id) === id)
    : undefined
  return { id, label: typeof option?.label === 'string' && option.label !== '' ? option.label : id }
}

/** The repetitions the value of `driving` (the field a set repeats over) gives. */
export function setRepeats(driving: FormItem | undefined, value: unknown): SetRepeat[] {
  if (!driving) return []
  if (COUNT_TYPES.has(driving.type)) {
    const count = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
    const n = Number.isFinite(count) ? Math.min(MAX_SET_REPEATS, Math.max(0, Math.floor(count))) : 0
    return Array.from({ length: n }, (_, i) => ({ id: String(i + 1), label: String(i + 1) }))
  }
  const seen = new Set<string>()
  const out: SetRepeat[] = []
  for (const entry of Array.isArray(value) ? value : [value]) {
    const repeat = entryOf(entry, driving.data.options)
    if (!repeat || seen.has(repeat.id)) continue
    seen.add(repeat.id)
    out.push(repeat)
    if (out.length === MAX_SET_REPEATS) break
  }
  return out
}

/** A repetition's caption: the set's `idset` before it, when given. */
export function setRepeatCaption(item: FormItem, repeat: SetRepeat): string {
  return item.idset ? `${item.idset} ${repeat.label}` : repeat.label
}

export interface SetEntry {
  item: FormItem
  repeat: SetRepeat
  key: string
}

/** Every repetition of the form's set fields for these values, in the order of form.fields. */
export function setEntries(config: FormConfig, values: Record<string, unknown>): SetEntry[] {
  const items = itemsByName(config)
  const out: SetEntry[] = []
  for (const item of config.fields) {
    if (!item.isSet) continue
    const driving = items.get(item.set)
    if (driving?.kind !== 'field') continue
    for (const repeat of setRepeats(driving.item, values[item.set])) {
      out.push({ item, repeat, key: setEntryKey(item.field_name, repeat.id) })
    }
  }
  return out
}

/**
 * Where each field's value lives in `values`: every field under its name, and each repetition of a
 * set field under its key. What the server checks per value (files, people) walks these.
 */
export function valueSlots(config: FormConfig, values: Record<string, unknown>): { item: FormItem; key: string }[] {
  return [
    ...config.fields.map((item) => ({ item, key: item.field_name })),
    ...setEntries(config, values).map(({ item, key }) => ({ item, key })),
  ]
}
