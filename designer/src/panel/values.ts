/**
 * Values as the panel reads and writes them. Items are stored sparse: a key that is absent takes its
 * type's default, so an editor shows the stored value when there is one and the default as a
 * placeholder otherwise; "reset" writes `undefined`, which removes the key.
 */
import type { EditorNode, PathKey } from './schema_nodes.js'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value at a path, or undefined when any step is missing. */
export function readAt(root: unknown, path: readonly PathKey[]): unknown {
  let node = root
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[String(key)]
  }
  return node
}

/**
 * A copy of `root` with the value at `path` replaced (objects on the way created); `undefined`
 * removes the key (or the list entry). The input is not changed: list entries are edited this way
 * before the whole list is written back.
 */
export function withValue(root: unknown, path: readonly PathKey[], value: unknown): unknown {
  if (path.length === 0) return value
  const [key, ...rest] = path
  if (Array.isArray(root)) {
    const index = Number(key)
    const copy = [...root]
    const next = withValue(copy[index], rest, value)
    if (next === undefined) copy.splice(index, 1)
    else copy[index] = next
    return copy
  }
  const copy: Record<string, unknown> = isRecord(root) ? { ...root } : {}
  const next = withValue(copy[String(key)], rest, value)
  if (next === undefined) delete copy[String(key)]
  else copy[String(key)] = next
  return copy
}

/** Deep equality of JSON values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
  }
  if (!isRecord(a) || !isRecord(b)) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]))
}

/** What several items hold at one path: the value when they agree, and whether any stores it. */
export interface SharedValue {
  /** The stored value when every item stores the same (undefined when none stores it or they differ). */
  value: unknown
  /** The items disagree (some differ, or some store it and others do not). */
  mixed: boolean
  /** At least one item stores a value there (so "reset" has something to remove). */
  set: boolean
  /** The first item's stored value (what a list editor starts from when the items differ). */
  first: unknown
}

export function sharedValue(items: readonly unknown[], path: readonly PathKey[]): SharedValue {
  const values = items.map((item) => readAt(item, path))
  const first = values[0]
  const mixed = values.some((value) => !sameValue(value, first))
  return { value: mixed ? undefined : first, mixed, set: values.some((value) => value !== undefined), first }
}

/** The value an editor shows: the stored one, else the default. */
export const effectiveValue = (node: EditorNode, stored: unknown): unknown =>
  stored !== undefined ? stored : node.default

/** A default as a placeholder text ('' when there is nothing to show). */
export function defaultText(value: unknown): string {
  if (value === undefined || value === '') return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(', ')
  }
  return JSON.stringify(value)
}

/** A typed number: undefined for an empty box (reset), NaN for what is not a number. */
export function parseNumber(text: string, integer = false): number | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  const value = Number(trimmed)
  if (!Number.isFinite(value)) return NaN
  return integer && !Number.isInteger(value) ? NaN : value
}

/** An id typed into a text box: digits become a number when the key holds string or number ids. */
export const parseId = (text: string, ids = false): string | number =>
  ids && /^-?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : text

/** A comma-separated list: trimmed, empty entries dropped. */
export function parseTags(text: string, ids = false): (string | number)[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => parseId(part, ids))
}

export const formatTags = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : '')

/** Parsed JSON, or an error flag for the text being typed. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** An empty value of a node's kind, for required keys without a default. */
function blankOf(node: EditorNode): unknown {
  switch (node.kind) {
    case 'number':
      return node.minimum ?? 0
    case 'boolean':
      return false
    case 'list':
    case 'tags':
      return []
    case 'object':
      return {}
    case 'fixed':
    case 'select':
      return node.options?.[0] ?? ''
    case 'json':
      return null
    default:
      return ''
  }
}

/** Keys that identify an entry in its list: a new entry gets one no other entry has. */
const IDENTITY_KEYS = new Set(['id', 'name', 'code', 'token', 'field_name'])

/** The n-th identity of a new entry: ids count, a repeating group's cells are cell_n, names name_n. */
const identity = (key: string, n: number) =>
  key === 'id' ? String(n) : key === 'field_name' ? `cell_${n}` : `${key}_${n}`

/**
 * A new entry for a list: its required keys without a default, identity keys made unique within
 * the list (`id` '2' after '1'; `name` 'name_2'); keys with a default are left out (sparse).
 */
export function newListEntry(item: EditorNode, list: readonly unknown[]): unknown {
  if (item.kind !== 'object') return blankOf(item)
  const entry: Record<string, unknown> = {}
  for (const child of item.children ?? []) {
    if (!child.required) continue
    if (IDENTITY_KEYS.has(child.key) && (child.kind === 'text' || child.kind === 'number')) {
      const taken = new Set(list.map((other) => String(readAt(other, [child.key]))))
      let n = list.length + 1
      const make = (i: number) => identity(child.key, i)
      while (taken.has(make(n))) n++
      entry[child.key] = child.kind === 'number' ? n : make(n)
    } else {
      entry[child.key] = blankOf(child)
    }
  }
  return entry
}

/** The list with entry `from` moved to `to` (a new list). */
export function moveEntry<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list]
  if (from < 0 || from >= copy.length || to < 0 || to >= copy.length) return copy
  const [moved] = copy.splice(from, 1)
  copy.splice(to, 0, moved!)
  return copy
}
