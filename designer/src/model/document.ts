/**
 * The document the designer edits: a form's name, its jsonconfig (spec 000 §3) and its process, as
 * the draft route stores them. The jsonconfig is kept sparse, as a designer writes it: a key left
 * out takes its schema default when the runtime or the server reads it (`withDefaults`), so the
 * document stays small, diffs between versions show only what was designed, and a default changed in
 * the contract reaches every form. `resolvedItem` gives an item with its defaults for reading.
 */
import { freeze, produce } from 'immer'
import { itemWithDefaults, type FieldTypeRegistry, type FormItem, type ItemKind } from '@tramita/contract'

/** A field or element as written: `field_name` and `type`, and whatever `data` differs from the defaults. */
export interface DraftItem {
  field_name: string
  type: string
  data?: Record<string, unknown>
  [key: string]: unknown
}

/** A page as written: rows of item names on the 12-column grid. */
export interface DraftPage {
  name: string
  section?: boolean
  section_id?: string
  layout: string[][]
  style?: Record<string, unknown>
  [key: string]: unknown
}

export interface DraftConfig {
  form: { pages: DraftPage[]; [key: string]: unknown }
  validations?: Record<string, unknown>
  fields: DraftItem[]
  elements: DraftItem[]
  [key: string]: unknown
}

export interface DesignDocument {
  name: string
  jsonconfig: DraftConfig
  /** The process definition (contract's ProcessDefinition), edited as plain JSON. */
  process: Record<string, unknown>
}

/** Every change is a pure function from one document to the next (the history keeps both). */
export type Command = (doc: DesignDocument) => DesignDocument

/**
 * A command written as an in-place edit of an immer draft: what it does not touch is shared with the
 * previous document, so a history of 200 versions of a 500-field form holds little more than one.
 */
export function edit(change: (draft: DesignDocument) => void): Command {
  return (doc) => produce(doc, change)
}

/** Where an item lives: `fields` for kind field, `elements` for kind element. */
export const LIST_OF: Record<ItemKind, 'fields' | 'elements'> = { field: 'fields', element: 'elements' }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A document from what the server answered (GET /inside/designer/forms/:id draft): a deep copy with
 * the arrays the commands walk made present, deeply frozen so no command can change a past version
 * in the history by accident. Nothing else is added: what the draft held is what is saved back.
 */
export function openDocument(input: { name: string; jsonconfig: unknown; process: unknown }): DesignDocument {
  const config = isObject(input.jsonconfig) ? structuredClone(input.jsonconfig) : {}
  const form = isObject(config.form) ? config.form : {}
  const pages = Array.isArray(form.pages) ? form.pages : []
  for (const page of pages) {
    if (isObject(page) && !Array.isArray(page.layout)) page.layout = []
  }
  const jsonconfig = {
    ...config,
    form: { ...form, pages },
    fields: Array.isArray(config.fields) ? config.fields : [],
    elements: Array.isArray(config.elements) ? config.elements : [],
  } as DraftConfig
  const process = isObject(input.process) ? structuredClone(input.process) : {}
  return freeze({ name: input.name, jsonconfig, process }, true)
}

/** An item's label text as written ('' when it has none). */
export function itemLabel(item: { data?: Record<string, unknown> }): string {
  return String((item.data?.label as { value?: unknown } | undefined)?.value ?? '')
}

export interface ItemRef {
  kind: ItemKind
  index: number
  item: DraftItem
}

/** The field or element of that name (names are unique across both lists). */
export function findItem(config: DraftConfig, name: string): ItemRef | undefined {
  for (const kind of ['field', 'element'] as const) {
    const index = config[LIST_OF[kind]].findIndex((item) => item.field_name === name)
    if (index >= 0) return { kind, index, item: config[LIST_OF[kind]][index]! }
  }
  return undefined
}

/** Like findItem, for callers holding a name the document must have (a bug in the caller otherwise). */
export function requireItem(config: DraftConfig, name: string): ItemRef {
  const found = findItem(config, name)
  if (!found) throw new RangeError(`No field or element named "${name}"`)
  return found
}

/** The item as the runtime reads it: its type's defaults applied (the panel shows these values). */
export function resolvedItem(config: DraftConfig, name: string, registry: FieldTypeRegistry): FormItem | undefined {
  const found = findItem(config, name)
  return found ? itemWithDefaults(found.item, found.kind, registry) : undefined
}

/** Every field and element name, in document order (fields first). */
export function itemNames(config: DraftConfig): string[] {
  return [...config.fields, ...config.elements].map((item) => item.field_name)
}

/** Replaces the whole document (the JSON view, an import): undone like any other change. */
export function replaceDocument(input: { name: string; jsonconfig: unknown; process: unknown }): Command {
  const next = openDocument(input)
  return () => next
}
