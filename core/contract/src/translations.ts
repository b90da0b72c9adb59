/**
 * A form's words in other languages. The texts a designer types (labels, descriptions, placeholders,
 * option labels, button texts...) are the form's own; each field or element may also hold
 * `translations: { en: { 'label.value': 'Name', 'options.2.label': 'Other' }, zh: {...} }`.
 *
 * A key is the text's path inside the item's `data`, dot-separated. A list entry is named by its
 * `id` (choice options) or `name` (table columns) when it has one, else by its position: reordering
 * options keeps their translations. The runtime shows `localizeConfig(config, language)`; a missing
 * or empty translation shows the form's own text. Which texts can be translated is a schema
 * annotation (`translatable`), so the designer offers exactly those and nothing is listed twice.
 */
import type { Language } from '@tramita/i18n'
import type { TranslationMap } from './schema/translatable.js'

type Step = string | number

/** The name of list entry `entry` at position `index` in a translation key. */
function entryName(entry: unknown, index: number): string {
  if (entry && typeof entry === 'object') {
    const { id, name } = entry as { id?: unknown; name?: unknown }
    if (typeof id === 'string' || typeof id === 'number') return String(id)
    if (typeof name === 'string' && name !== '') return name
  }
  return String(index)
}

/** The key of the text at `path` inside `data` (list positions become the entries' names). */
export function translationKey(data: unknown, path: readonly Step[]): string {
  const parts: string[] = []
  let node: unknown = data
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') {
      parts.push(entryName(node[step], step))
    } else {
      parts.push(String(step))
    }
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[step as string] : undefined
  }
  return parts.join('.')
}

/** The path inside `data` a key names, or undefined when no entry has that name any more. */
function pathOf(data: unknown, key: string): Step[] | undefined {
  const path: Step[] = []
  let node: unknown = data
  for (const part of key.split('.')) {
    if (Array.isArray(node)) {
      const index = node.findIndex((entry, at) => entryName(entry, at) === part)
      if (index < 0) return undefined
      path.push(index)
      node = node[index]
    } else if (node && typeof node === 'object' && part in node) {
      path.push(part)
      node = (node as Record<string, unknown>)[part]
    } else {
      return undefined
    }
  }
  return typeof node === 'string' ? path : undefined
}

/** `data` with the text at `path` replaced, copying only the objects and lists on the way. */
function replaced(data: unknown, path: readonly Step[], text: string): unknown {
  if (path.length === 0) return text
  const [step, ...rest] = path
  if (Array.isArray(data)) {
    const copy = data.slice()
    copy[step as number] = replaced(data[step as number], rest, text)
    return copy
  }
  const record = data as Record<string, unknown>
  return { ...record, [step as string]: replaced(record[step as string], rest, text) }
}

interface Translated {
  data?: unknown
  translations?: TranslationMap
}

/**
 * The item as read in `language`: its texts replaced where a translation is given. A repeating
 * group's cells (`data.cells`) are items of their own, each read by its own translations.
 */
export function localizeItem<T extends Translated>(item: T, language: Language): T {
  const texts = item.translations?.[language]
  let data = item.data
  for (const [key, text] of Object.entries(texts ?? {})) {
    if (text === '') continue
    const path = pathOf(data, key)
    if (path) data = replaced(data, path, text)
  }
  const cells = (data as { cells?: unknown } | undefined)?.cells
  if (Array.isArray(cells)) {
    const shown = localizeList(cells as Translated[], language)
    if (shown !== cells) data = { ...(data as object), cells: shown }
  }
  return data === item.data ? item : { ...item, data }
}

/** The config as read in `language` (fields and elements); the same object when nothing is translated. */
export function localizeConfig<C extends { fields: readonly Translated[]; elements?: readonly Translated[] }>(
  config: C,
  language: Language
): C {
  const fields = localizeList(config.fields, language)
  const elements = config.elements && localizeList(config.elements, language)
  return fields === config.fields && elements === config.elements ? config : { ...config, fields, elements }
}

/** The list with its items localized; the same list when none changed. */
function localizeList<T extends Translated>(items: readonly T[], language: Language): readonly T[] {
  let changed = false
  const shown = items.map((item) => {
    const one = localizeItem(item, language)
    if (one !== item) changed = true
    return one
  })
  return changed ? shown : items
}
