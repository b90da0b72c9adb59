/** Form.io datagrid / editgrid → a table field whose columns are the grid's components. */
import type { FormDraft } from './draft.js'
import { formioOptions } from './formio-options.js'
import { pickText } from './source-text.js'
import { Columns, tableData, type ColumnType } from './table-columns.js'
import { isMeaningful, isObject, listOf, type DraftItem, type Json } from './types.js'

const COLUMN_TYPES: Record<string, ColumnType> = {
  textfield: 'text',
  textarea: 'text',
  email: 'text',
  url: 'text',
  phoneNumber: 'text',
  password: 'text',
  hidden: 'text',
  time: 'text',
  select: 'text',
  radio: 'text',
  number: 'number',
  currency: 'number',
  checkbox: 'boolean',
  datetime: 'date',
  day: 'date',
}

/** What a cell cannot keep of its component. */
function reportCell(draft: FormDraft, child: Json, path: string): void {
  if (formioOptions(child.type === 'select' ? (child.data as Json | undefined)?.values : child.values).length > 0) {
    draft.skip(
      `${path}/${child.type === 'select' ? 'data/values' : 'values'}`,
      'a table column has no options; its cells take any text'
    )
  }
  if ((child.validate as Json | undefined)?.required === true)
    draft.skip(`${path}/validate/required`, 'table cells cannot be required')
  for (const key of ['conditional', 'customConditional', 'calculateValue', 'defaultValue']) {
    const value = child[key]
    const meaningful =
      key === 'conditional'
        ? isObject(value) && isMeaningful(value.when ?? value.conditions ?? value.json)
        : isMeaningful(value)
    if (meaningful) draft.skip(`${path}/${key}`, 'table columns have no conditions, formulas or defaults from Form.io')
  }
}

export function formioTable(draft: FormDraft, c: Json, path: string, key: string): DraftItem[] {
  const columns = new Columns()
  listOf(c.components).forEach((child, index) => {
    const here = `${path}/components/${index}`
    if (!isObject(child)) return
    const type = COLUMN_TYPES[String(child.type)]
    if (!type) {
      draft.skip(here, `a table column cannot be a Form.io "${String(child.type)}"`)
      return
    }
    reportCell(draft, child, here)
    const extra = child.hidden === true ? { show: false } : {}
    columns.add(typeof child.key === 'string' ? child.key : String(child.type), pickText(child.label), type, extra)
  })
  if (isMeaningful((c.validate as Json | undefined)?.maxLength))
    draft.skip(`${path}/validate/maxLength`, 'no row count limits')
  if (c.disableAddingRemovingRows === true)
    draft.skip(`${path}/disableAddingRemovingRows`, 'rows can always be added and removed')
  return [draft.field(key, 'table', tableData(columns))]
}
