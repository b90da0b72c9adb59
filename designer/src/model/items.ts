/**
 * Field and element commands: add one of any registered type, duplicate, delete, rename and set any
 * of their keys. Each command accepts several names, so a multi-selection is one step of history.
 */
import { current, isDraft } from 'immer'
import type { FieldType, FieldTypeRegistry, ItemKind } from '@tramita/contract'
import {
  edit,
  LIST_OF,
  requireItem,
  type Command,
  type DesignDocument,
  type DraftConfig,
  type DraftItem,
} from './document.js'
import { checkTarget, inLayoutOrder, locate, relocate, type Target } from './layout.js'
import { fieldNameProblem, uniqueFieldName, type NameProblem } from './names.js'
import { pathKeys, setIn, type Path } from './paths.js'
import { dropReferences, renameReferences } from './references.js'

/** A name refused for a field or element, with the reason the UI shows beside the name box. */
export class FieldNameError extends Error {
  constructor(
    readonly fieldName: string,
    readonly problem: NameProblem
  ) {
    super(`"${fieldName}" cannot name a field: ${problem}`)
    this.name = 'FieldNameError'
  }
}

export interface NewItem {
  kind: ItemKind
  type: string
  /** The name to give it; by default `<type>_<n>` (see uniqueFieldName, which the UI may call first). */
  name?: string
  /** Where it goes; none leaves it off the layouts (a `var` field the scripts use, for instance). */
  at?: Target
  /** Values beside the defaults, e.g. a translated label: `{ label: { value: 'Nombre' } }`. */
  data?: Record<string, unknown>
}

/** The part of a type's JSON Schema (TypeBox) read here. */
interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  default?: unknown
  minimum?: number
}

/** A value of the schema's JSON type that is as empty as it can be (for required keys with no default). */
function blankOf(schema: JsonSchema): unknown {
  switch (schema.type) {
    case 'string':
      return ''
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    case 'array':
      return []
    default:
      return {}
  }
}

/**
 * The `data` a new item starts with: what the caller gives, plus the type's required keys that have
 * no default (a section element's section_id), so the item has every key its schema needs. Keys
 * with a default are left out: they apply when read (see document.ts).
 */
function seedData(fieldType: FieldType, given: Record<string, unknown>): Record<string, unknown> {
  const data = (fieldType.schema as JsonSchema).properties?.data ?? {}
  const seeded: Record<string, unknown> = {}
  for (const key of data.required ?? []) {
    const property = data.properties?.[key] ?? {}
    if (property.default === undefined && !(key in given)) seeded[key] = blankOf(property)
  }
  return { ...seeded, ...structuredClone(given) }
}

/** Adds a field or element of a registered type (plugin types included: pass their registry). */
export function addItem(registry: FieldTypeRegistry, spec: NewItem): Command {
  const fieldType = registry.require(spec.kind, spec.type)
  return edit((doc) => {
    const config = doc.jsonconfig
    const name = spec.name ?? uniqueFieldName(config, spec.type)
    const problem = fieldNameProblem(config, name)
    if (problem) throw new FieldNameError(name, problem)
    if (spec.at) checkTarget(config, spec.at)
    const item: DraftItem = { field_name: name, type: fieldType.type }
    const data = seedData(fieldType, spec.data ?? {})
    if (Object.keys(data).length > 0) item.data = data
    config[LIST_OF[spec.kind]].push(item)
    if (spec.at) relocate(config.form.pages, [name], spec.at)
  })
}

/** The names `duplicateItems(names)` gives the copies (handed out in layout order), so a UI can select them. */
export function copyNames(config: DraftConfig, names: readonly string[]): Map<string, string> {
  const copies = new Map<string, string>()
  for (const name of inLayoutOrder(config, names)) copies.set(name, uniqueFieldName(config, name, copies.values()))
  return copies
}

/** Copies each item under a new name, just after the original in its list and in its row. */
export function duplicateItems(names: readonly string[]): Command {
  return edit((doc) => {
    const config = doc.jsonconfig
    const copies = copyNames(config, names)
    for (const name of copies.keys()) {
      const { kind, index, item } = requireItem(config, name)
      // The item is a draft (a Proxy, which structuredClone refuses): copy its current state.
      const copy = { ...structuredClone(isDraft(item) ? current(item) : item), field_name: copies.get(name)! }
      config[LIST_OF[kind]].splice(index + 1, 0, copy)
      const slot = locate(config, name)
      if (slot) config.form.pages[slot.page]!.layout[slot.row]!.splice(slot.column + 1, 0, copy.field_name)
    }
  })
}

/** Takes items out of `fields` and `elements` (a mutable draft); layouts are dropReferences' job. */
export function removeItemsFrom(config: DraftConfig, names: ReadonlySet<string>): void {
  for (const list of ['fields', 'elements'] as const) {
    if (config[list].some((item) => names.has(item.field_name))) {
      config[list] = config[list].filter((item) => !names.has(item.field_name))
    }
  }
}

/** Deletes items, and their places on the layouts (rows left empty go too). */
export function deleteItems(names: readonly string[]): Command {
  return edit((doc) => {
    for (const name of names) requireItem(doc.jsonconfig, name)
    const deleted = new Set(names)
    removeItemsFrom(doc.jsonconfig, deleted)
    dropReferences(doc, deleted)
  })
}

/** Renames an item and every reference the contract knows by name (references.ts). */
export function renameItem(from: string, to: string): Command {
  return edit((doc) => renameIn(doc, from, to))
}

function renameIn(doc: DesignDocument, from: string, to: string): void {
  const { item } = requireItem(doc.jsonconfig, from)
  if (from === to) return
  const problem = fieldNameProblem(doc.jsonconfig, to, from)
  if (problem) throw new FieldNameError(to, problem)
  item.field_name = to
  renameReferences(doc, from, to)
}

/**
 * Sets a key of several items by its path inside each item (`/data/validate/required`,
 * ['data', 'label', 'value']); `undefined` removes it, so its default applies again. The name goes
 * through renameItem, so references follow.
 */
export function setItemsValue(names: readonly string[], path: Path, value: unknown): Command {
  const keys = pathKeys(path)
  return edit((doc) => {
    for (const name of names) {
      if (keys.length === 1 && keys[0] === 'field_name') renameIn(doc, name, String(value))
      else setIn(requireItem(doc.jsonconfig, name).item, keys, value)
    }
  })
}

export function setItemValue(name: string, path: Path, value: unknown): Command {
  return setItemsValue([name], path, value)
}

/**
 * Sets any value of the document by its path (`/name`, `/jsonconfig/form/display`,
 * `/process/steps/0/label`): the same paths the validation reports problems at. An item's
 * `field_name` is renamed with its references.
 */
export function setValue(path: Path, value: unknown): Command {
  const keys = pathKeys(path)
  return edit((doc) => {
    const [root, list, index, key, ...rest] = keys
    if (root === 'jsonconfig' && (list === 'fields' || list === 'elements') && key === 'field_name' && !rest.length) {
      const item = doc.jsonconfig[list][Number(index)]
      if (!item) throw new RangeError(`No ${list} ${index}`)
      renameIn(doc, item.field_name, String(value))
      return
    }
    if (keys.length === 1 && root === 'name') {
      doc.name = String(value)
      return
    }
    if (root !== 'jsonconfig' && root !== 'process') throw new RangeError(`No part "${root}" in the document`)
    setIn(doc as unknown as Record<string, unknown>, keys, value)
  })
}
