/**
 * What a canvas draws: each page with its rows of items, each item read with its type's defaults
 * (label, columns per device), and the items on no page. Items a layout names but the form lacks
 * are listed as missing rather than dropped, so the canvas can show the problem where it is.
 */
import {
  DEVICES,
  itemWithDefaults,
  localizeItem,
  type Device,
  type FieldTypeRegistry,
  type ItemKind,
} from '@tramita/contract'
import type { Language } from '@tramita/i18n'
import { findItem, itemLabel, itemNames, type DesignDocument } from './document.js'
import { columnsOf } from './sizes.js'

export interface OutlineItem {
  name: string
  /** Undefined when a layout names an item the form does not have. */
  kind?: ItemKind
  type?: string
  label: string
  columns: Record<Device, number>
}

export interface OutlinePage {
  index: number
  name: string
  section: boolean
  sectionId: string
  rows: OutlineItem[][]
}

export interface Outline {
  pages: OutlinePage[]
  /** Fields and elements on no page. */
  unplaced: OutlineItem[]
}

/** The document as the canvas draws it; with a language, labels show their translations where given. */
export function outline(doc: DesignDocument, registry: FieldTypeRegistry, language?: Language): Outline {
  const config = doc.jsonconfig
  const read = (name: string): OutlineItem => {
    const found = findItem(config, name)
    const full = Object.fromEntries(DEVICES.map((d) => [d, 12])) as Record<Device, number>
    if (!found) return { name, label: '', columns: full }
    const item = itemWithDefaults(found.item, found.kind, registry)
    // An unknown type gets no defaults: read what is there.
    const known = registry.get(found.kind, item.type) !== undefined
    return {
      name,
      kind: found.kind,
      type: item.type,
      label: itemLabel(language ? localizeItem(item, language) : item),
      columns: known
        ? (Object.fromEntries(DEVICES.map((d) => [d, columnsOf(item, d)])) as Record<Device, number>)
        : full,
    }
  }
  const placed = new Set<string>()
  const pages = config.form.pages.map((page, index) => ({
    index,
    name: page.name,
    section: page.section === true,
    sectionId: page.section_id ?? '',
    rows: page.layout.map((row) =>
      row.map((name) => {
        placed.add(name)
        return read(name)
      })
    ),
  }))
  const unplaced = itemNames(config)
    .filter((name) => !placed.has(name))
    .map(read)
  return { pages, unplaced }
}
