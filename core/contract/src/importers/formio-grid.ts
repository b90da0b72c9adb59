/**
 * Form.io datagrid / editgrid → a repeating group (types/repeat.ts). Its components become the cells,
 * made by the same makers as the form's fields on the row's own draft: their required flag, values,
 * limits and their conditions, which read the same row (`row.x` in a customConditional, a sibling's
 * key in a simple one) or the form's fields, and calculateValue as a formula per row.
 * validate.minLength / maxLength bound the rows; a grid whose rows cannot be added or removed keeps
 * its starting rows, no more, no fewer.
 */
import { RowDraft, type FormDraft } from './draft.js'
import { formioCondition } from './formio-conditions.js'
import { keepCells, repeatData, rowCount, type Rows } from './repeat-group.js'
import { at, pickText } from './source-text.js'
import { isMeaningful, isObject, listOf, type DraftItem, type Json } from './types.js'

/** The Form.io components a cell can be (the others have no cell type). */
const CELL_COMPONENTS = new Set([
  'textfield',
  'password',
  'textarea',
  'email',
  'url',
  'number',
  'currency',
  'checkbox',
  'selectboxes',
  'select',
  'radio',
  'datetime',
  'day',
  'time',
])

type Items = (draft: FormDraft, c: Json, path: string) => DraftItem[]

/** The grid's row limits: validate.minLength / maxLength, or its starting rows when they are fixed. */
function rowsOf(draft: FormDraft, c: Json, path: string): Rows {
  if (c.disableAddingRemovingRows === true) {
    const fixed = Math.max(1, listOf(c.defaultValue).length)
    return { min: fixed, max: fixed }
  }
  const min = rowCount(at(c, 'validate.minLength'))
  const max = rowCount(at(c, 'validate.maxLength'))
  if (min !== undefined && max !== undefined && min > max) {
    draft.skip(`${path}/validate/minLength`, `more rows asked (${min}) than allowed (${max})`)
    return { max }
  }
  return { min, max, addText: pickText(c.addAnother) }
}

export function formioGrid(draft: FormDraft, c: Json, path: string, key: string, items: Items): DraftItem[] {
  const row = new RowDraft(draft)
  const cells = listOf(c.components).flatMap((child, index) => {
    const here = `${path}/components/${index}`
    if (!isObject(child)) {
      draft.skip(here, 'not a component')
      return []
    }
    const type = String(child.type)
    if (!CELL_COMPONENTS.has(type)) {
      draft.skip(here, `a cell of a repeating group cannot be a Form.io "${type}"`)
      return []
    }
    // Its calculateValue reading `row.x` becomes the cell's formula, run per row.
    const made = keepCells(draft, items(row, child, here), here)
    const condition = formioCondition(row, child, here)
    if (condition) for (const cell of made) row.when(cell, [condition])
    return made
  })
  if (c.type === 'editgrid') {
    for (const part of ['templates', 'rowDrafts', 'modal', 'saveRow', 'removeRow'])
      if (isMeaningful(c[part])) draft.skip(`${path}/${part}`, 'rows are edited in place, with the form’s own buttons')
  }
  return [draft.field(key, 'repeat', repeatData(cells, rowsOf(draft, c, path)))]
}
