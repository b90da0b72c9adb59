/**
 * Where items sit on the pages' layouts (rows of names on the 12-column grid), and the two edits
 * every move, add, duplicate and delete is made of: take names out, put names in. Positions are
 * given as the document is before the command, which is what a canvas shows while something is
 * being dragged over it.
 */
import type { DraftConfig, DraftPage } from './document.js'

export interface Slot {
  page: number
  row: number
  column: number
}

/**
 * Where names go: into an existing row before the item at `column` (the row's length: at its end),
 * or into a new row inserted at `newRow` (the page's row count: at the bottom).
 */
export type Target = { page: number; row: number; column: number } | { page: number; newRow: number }

/** Where a name is on the layouts, if it is on one. */
export function locate(config: DraftConfig, name: string): Slot | undefined {
  const { pages } = config.form
  for (let page = 0; page < pages.length; page++) {
    const rows = pages[page]!.layout
    for (let row = 0; row < rows.length; row++) {
      const column = rows[row]!.indexOf(name)
      if (column >= 0) return { page, row, column }
    }
  }
  return undefined
}

/** The names in layout order (page, row, column); names on no layout come last, in the order given. */
export function inLayoutOrder(config: DraftConfig, names: Iterable<string>): string[] {
  const wanted = new Set(names)
  const ordered: string[] = []
  for (const page of config.form.pages) {
    for (const row of page.layout) for (const name of row) if (wanted.delete(name)) ordered.push(name)
  }
  return [...ordered, ...wanted]
}

/** Throws unless the target is a place on the document as it is. */
export function checkTarget(config: DraftConfig, target: Target): void {
  const page = config.form.pages[target.page]
  if (!page) throw new RangeError(`No page ${target.page}`)
  if ('newRow' in target) {
    if (!Number.isInteger(target.newRow) || target.newRow < 0 || target.newRow > page.layout.length) {
      throw new RangeError(`No row position ${target.newRow} on page ${target.page}`)
    }
    return
  }
  const row = page.layout[target.row]
  if (!row) throw new RangeError(`No row ${target.row} on page ${target.page}`)
  if (!Number.isInteger(target.column) || target.column < 0 || target.column > row.length) {
    throw new RangeError(`No column ${target.column} in row ${target.row} of page ${target.page}`)
  }
}

/** Marks a place left by a name while the names are put elsewhere; never a field name (not an identifier). */
const HOLE = '\u0000'

/**
 * Takes `names` out of every layout and puts them at `target` (if any), on a mutable draft. Rows the
 * removal empties go away; rows that were empty before stay (the designer adds them as drop zones).
 * Marking the old places first and clearing them last keeps `target` meaning the document as it was.
 */
export function relocate(pages: DraftPage[], names: readonly string[], target?: Target): void {
  const moving = new Set(names)
  const touched = new Set<string[]>()
  for (const page of pages) {
    for (const row of page.layout) {
      row.forEach((name, column) => {
        if (moving.has(name)) {
          row[column] = HOLE
          touched.add(row)
        }
      })
    }
  }
  if (target && names.length > 0) {
    const page = pages[target.page]!
    if ('newRow' in target) page.layout.splice(target.newRow, 0, [...names])
    else page.layout[target.row]!.splice(target.column, 0, ...names)
  }
  if (touched.size === 0) return
  for (const page of pages) {
    if (!page.layout.some((row) => touched.has(row))) continue
    const rows: string[][] = []
    for (const row of page.layout) {
      if (!touched.has(row)) rows.push(row)
      else if (row.some((name) => name !== HOLE)) rows.push(row.filter((name) => name !== HOLE))
    }
    page.layout = rows
  }
}
