/**
 * Where an editor reads and writes its value. The panel's root source reads the selected items
 * (several: a value shared or mixed) and writes through `onChange(path, value)`, once for all of
 * them. A list's entry is a source too: its editors read the entry and write the whole list back, as
 * a sparse item may not hold the list yet (its default applies) and a path into a missing list would
 * create an object, not a list.
 */
import type { PathKey } from './schema_nodes.js'
import { readAt, sharedValue, withValue, type SharedValue } from './values.js'

export interface ValueSource {
  /** The value at a path inside this source. */
  read(path: readonly PathKey[]): SharedValue
  /** Sets (or with undefined removes) the value at a path inside this source. */
  write(path: readonly PathKey[], value: unknown): void
}

/** The selected items, written all at once by `onChange` (paths inside an item). */
export function itemsSource(
  items: readonly unknown[],
  onChange: (path: readonly string[], value: unknown) => void
): ValueSource {
  return {
    read: (path) => sharedValue(items, path),
    write: (path, value) => onChange(path.map(String), value),
  }
}

/**
 * Entry `index` of the list `list` (the value shown: stored, else the default), which lives at
 * `listPath` in `parent`: a change to the entry writes the list with the entry changed.
 */
export function entrySource(
  parent: ValueSource,
  listPath: readonly PathKey[],
  list: readonly unknown[],
  index: number
): ValueSource {
  return {
    read(path) {
      const value = readAt(list, [index, ...path])
      return { value, mixed: false, set: value !== undefined, first: value }
    },
    write: (path, value) => parent.write(listPath, withValue(list, [index, ...path], value)),
  }
}

/** The value shown for a list: the stored list, else (several items differing) the first's, else none. */
export function shownList(shared: SharedValue, fallback: unknown): unknown[] {
  const value = shared.mixed ? shared.first : shared.value
  if (Array.isArray(value)) return value
  return Array.isArray(fallback) ? fallback : []
}

export type { SharedValue }
