/**
 * What a drag on the canvas means, without React or dnd-kit: the ids given to what can be dragged
 * (an item, a palette type) and to where it can land (before an item, at a row's end, a new row, a
 * page tab), the model command a drop makes, and what the screen reader hears about each.
 */
import type { FieldTypeRegistry, ItemKind } from '@tramita/contract'
import { addItem, moveItems, type Command, type DesignDocument, type Outline, type Target } from '../model/index.js'

export type DragSource = { from: 'item'; name: string } | { from: 'palette'; kind: ItemKind; type: string }

/**
 * `slot`: in a row before the item at `column` (the row's length: at its end); `row`: a new row
 * inserted at `row`; `page`: a new row at the bottom of that page (its tab).
 */
export type DropPlace =
  | { at: 'slot'; page: number; row: number; column: number }
  | { at: 'row'; page: number; row: number }
  | { at: 'page'; page: number }

export const itemDragId = (name: string) => `item:${name}`
export const paletteDragId = (kind: ItemKind, type: string) => `palette:${kind}:${type}`

export function dropId(place: DropPlace): string {
  switch (place.at) {
    case 'slot':
      return `slot:${place.page}:${place.row}:${place.column}`
    case 'row':
      return `row:${place.page}:${place.row}`
    case 'page':
      return `page:${place.page}`
  }
}

export function parseDragId(id: unknown): DragSource | undefined {
  if (typeof id !== 'string') return undefined
  if (id.startsWith('item:')) return { from: 'item', name: id.slice(5) }
  const [prefix, kind, ...type] = id.split(':')
  if (prefix === 'palette' && (kind === 'field' || kind === 'element') && type.length > 0) {
    return { from: 'palette', kind, type: type.join(':') }
  }
  return undefined
}

const index = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined)

export function parseDropId(id: unknown): DropPlace | undefined {
  if (typeof id !== 'string') return undefined
  const [prefix, a, b, c, ...rest] = id.split(':')
  if (rest.length > 0) return undefined
  const [page, row, column] = [index(a), index(b), index(c)]
  if (page === undefined) return undefined
  if (prefix === 'slot' && row !== undefined && column !== undefined) return { at: 'slot', page, row, column }
  if (prefix === 'row' && row !== undefined && c === undefined) return { at: 'row', page, row }
  if (prefix === 'page' && b === undefined) return { at: 'page', page }
  return undefined
}

/** The model's target for a place, on the document as it is (a tab: a new row at the page's bottom). */
export function targetOf(doc: DesignDocument, place: DropPlace): Target | undefined {
  const page = doc.jsonconfig.form.pages[place.page]
  if (!page) return undefined
  if (place.at === 'page') return { page: place.page, newRow: page.layout.length }
  if (place.at === 'row') return { page: place.page, newRow: place.row }
  return { page: place.page, row: place.row, column: place.column }
}

/**
 * The command for dropping `source` on `place`; undefined when nothing is to be done. An item that
 * is part of the selection brings the whole selection along (in layout order, the model's rule).
 */
export function dropCommand(
  doc: DesignDocument,
  registry: FieldTypeRegistry,
  source: DragSource,
  place: DropPlace,
  selection: readonly string[] = []
): Command | undefined {
  const at = targetOf(doc, place)
  if (!at) return undefined
  if (source.from === 'palette') {
    if (!registry.get(source.kind, source.type)) return undefined
    return addItem(registry, { kind: source.kind, type: source.type, at })
  }
  const names = selection.includes(source.name) ? selection : [source.name]
  return moveItems(names, at)
}

/** A description key and its values, for the screen reader (the caller translates). */
export interface Spoken {
  key: string
  values: Record<string, string | number>
}

/** What is being dragged: an item by its label (else its name), a palette entry by its type. */
export function describeSource(source: DragSource, read: Outline): Spoken {
  if (source.from === 'palette') return { key: 'a11y_palette_item', values: { type: source.type } }
  const item = [...read.pages.flatMap((page) => page.rows.flat()), ...read.unplaced].find(
    (one) => one.name === source.name
  )
  return { key: 'a11y_item', values: { label: item?.label || source.name } }
}

/** Where it would land, with 1-based positions and the page's name. */
export function describePlace(place: DropPlace, read: Outline): Spoken {
  const page = read.pages[place.page]?.name ?? String(place.page + 1)
  if (place.at === 'page') return { key: 'a11y_over_page', values: { page } }
  if (place.at === 'row') return { key: 'a11y_over_new_row', values: { page, row: place.row + 1 } }
  return { key: 'a11y_over_slot', values: { page, row: place.row + 1, column: place.column + 1 } }
}
