/**
 * Moving items on the grid: within a row, between rows, between pages, one or several at once (a
 * multi-selection keeps its layout order and lands together). Items on no layout are placed.
 */
import { produce } from 'immer'
import { requireItem, type Command, type DraftPage } from './document.js'
import { checkTarget, inLayoutOrder, relocate, type Target } from './layout.js'

const sameLayouts = (a: readonly DraftPage[], b: readonly DraftPage[]) =>
  a.every((page, p) => {
    const rows = b[p]!.layout
    return (
      page.layout === rows ||
      (page.layout.length === rows.length &&
        page.layout.every((row, r) => row.join('\u0000') === rows[r]!.join('\u0000')))
    )
  })

/** Moves items to `target` (a place on the document as it is before the move). */
export function moveItems(names: readonly string[], target: Target): Command {
  return (doc) => {
    const config = doc.jsonconfig
    for (const name of names) requireItem(config, name)
    checkTarget(config, target)
    const next = produce(doc, (draft) => relocate(draft.jsonconfig.form.pages, inLayoutOrder(config, names), target))
    // A drop where the items already are changes nothing: no step in the history for it.
    return sameLayouts(doc.jsonconfig.form.pages, next.jsonconfig.form.pages) ? doc : next
  }
}

export function moveItem(name: string, target: Target): Command {
  return moveItems([name], target)
}
