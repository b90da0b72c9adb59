/**
 * Page and row commands (spec 000 §3 "Page"): add, rename, reorder, delete, mark as a section, page
 * style and other page keys; rows as drop zones on the grid. Indices are the document's as it is.
 */
import { edit, type Command, type DesignDocument, type DraftPage } from './document.js'
import { uniqueSectionId } from './names.js'
import { pathKeys, setIn, type Path } from './paths.js'
import { dropReferences, remapPageReferences, renamePageReferences } from './references.js'
import { removeItemsFrom } from './items.js'

function pageAt(doc: DesignDocument, index: number): DraftPage {
  const page = doc.jsonconfig.form.pages[index]
  if (!page) throw new RangeError(`No page ${index}`)
  return page
}

function checkName(name: string): void {
  if (name.trim() === '') throw new RangeError('A page needs a name')
}

/** A new empty page at `at` (the end by default). */
export function addPage(name: string, at?: number): Command {
  checkName(name)
  return edit((doc) => {
    const pages = doc.jsonconfig.form.pages
    const index = at ?? pages.length
    if (!Number.isInteger(index) || index < 0 || index > pages.length) throw new RangeError(`No page position ${at}`)
    remapPageReferences(doc.jsonconfig, (old) => (old >= index ? old + 1 : old))
    pages.splice(index, 0, { name, layout: [] })
  })
}

export function renamePage(index: number, name: string): Command {
  checkName(name)
  return edit((doc) => {
    const page = pageAt(doc, index)
    renamePageReferences(doc.jsonconfig, page.name, name)
    page.name = name
  })
}

/** Moves the page at `from` so it ends at index `to`. */
export function movePage(from: number, to: number): Command {
  return edit((doc) => {
    const pages = doc.jsonconfig.form.pages
    pageAt(doc, from)
    pageAt(doc, to)
    if (from === to) return
    const order = pages.map((_, index) => index)
    order.splice(to, 0, ...order.splice(from, 1))
    remapPageReferences(doc.jsonconfig, (old) => order.indexOf(old))
    pages.splice(to, 0, ...pages.splice(from, 1))
  })
}

/**
 * Removes a page; a form keeps at least one page. Its fields and elements are kept, on no page (the
 * canvas lists them to be dragged back), unless `items` is 'delete': a click must not lose fields
 * that scripts, the process or other forms' data may still name.
 */
export function deletePage(index: number, items: 'keep' | 'delete' = 'keep'): Command {
  return edit((doc) => {
    const pages = doc.jsonconfig.form.pages
    const page = pageAt(doc, index)
    if (pages.length === 1) throw new RangeError('A form keeps at least one page')
    const names = new Set(page.layout.flat())
    remapPageReferences(doc.jsonconfig, (old) => (old === index ? undefined : old > index ? old - 1 : old))
    pages.splice(index, 1)
    if (items === 'keep') return
    removeItemsFrom(doc.jsonconfig, names)
    dropReferences(doc, names)
  })
}

/** The names of the fields and elements placed on a page (what deleting it would leave or delete). */
export function pageItemNames(doc: DesignDocument, index: number): string[] {
  return [...new Set(pageAt(doc, index).layout.flat())]
}

/**
 * Marks a page as a section (shown by `section` elements, the navbar or the lateral menu, never
 * navigated to) or back. A section needs a `section_id`: the one it had, else one from its name.
 */
export function setPageSection(index: number, section: boolean, sectionId?: string): Command {
  return edit((doc) => {
    const page = pageAt(doc, index)
    if (!section) {
      // The id stays: marking the page again brings back the elements and menus that name it.
      page.section = false
      return
    }
    page.section = true
    page.section_id = sectionId || page.section_id || uniqueSectionId(doc.jsonconfig, page.name)
  })
}

/** Any key of a page (style, app_info, style_from_body...) by its path inside the page. */
export function setPageValue(index: number, path: Path, value: unknown): Command {
  return edit((doc) => setIn(pageAt(doc, index) as Record<string, unknown>, path, value))
}

/**
 * What the page panel writes, by path inside the page: a rename (actions that start on the page
 * follow), the section mark (a section gets an id), else the value itself (undefined: the default).
 */
export function editPage(index: number, path: Path, value: unknown): Command {
  const keys = pathKeys(path)
  if (keys.length === 1 && keys[0] === 'name') {
    if (typeof value !== 'string') throw new RangeError('A page needs a name')
    return renamePage(index, value)
  }
  if (keys.length === 1 && keys[0] === 'section') return setPageSection(index, value === true)
  if (keys[0] === 'layout') throw new RangeError('Rows are edited on the canvas')
  return setPageValue(index, keys, value)
}

/** A key of the page's style by its path inside `style`, e.g. `/page_style/background` or ['responsive', 'mobile']. */
export function setPageStyle(index: number, path: Path, value: unknown): Command {
  return setPageValue(index, ['style', ...pathKeys(path)], value)
}

/** An empty row (a drop zone) at `at` on a page, the bottom by default. */
export function addRow(page: number, at?: number): Command {
  return edit((doc) => {
    const rows = pageAt(doc, page).layout
    const index = at ?? rows.length
    if (!Number.isInteger(index) || index < 0 || index > rows.length) throw new RangeError(`No row position ${at}`)
    rows.splice(index, 0, [])
  })
}

/** Moves a row within its page so it ends at index `to`. */
export function moveRow(page: number, from: number, to: number): Command {
  return edit((doc) => {
    const rows = pageAt(doc, page).layout
    if (!rows[from] || !rows[to]) throw new RangeError(`No row ${rows[from] ? to : from} on page ${page}`)
    rows.splice(to, 0, ...rows.splice(from, 1))
  })
}

/** Removes a row and the fields and elements in it. */
export function deleteRow(page: number, row: number): Command {
  return edit((doc) => {
    const rows = pageAt(doc, page).layout
    const names = rows[row]
    if (!names) throw new RangeError(`No row ${row} on page ${page}`)
    const deleted = new Set(names)
    rows.splice(row, 1)
    removeItemsFrom(doc.jsonconfig, deleted)
    dropReferences(doc, deleted)
  })
}
