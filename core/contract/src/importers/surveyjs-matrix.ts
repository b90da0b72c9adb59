/**
 * SurveyJS questions that hold several values: a single-choice matrix becomes one radios field per
 * row, multipletext one field per item, and the repeated ones (matrixdynamic, matrixdropdown,
 * paneldynamic) a table whose columns are the cells. Rows of a matrix keep their SurveyJS names
 * ({matrix.row}) so that conditions reading them still translate.
 */
import type { FormDraft } from './draft.js'
import { translateSurveyExpression } from './surveyjs-emit.js'
import { surveyOptions } from './surveyjs-common.js'
import type { Maker } from './surveyjs-fields.js'
import { pickText } from './source-text.js'
import { Columns, tableData, type ColumnType } from './table-columns.js'
import { atom } from './js.js'
import { isMeaningful, isObject, listOf, type DraftItem, type Json } from './types.js'

const titled = (title: string, part: string) => (title ? `${title}: ${part}` : part)

const SOME_ROWS = 'SurveyJS asks for at least one answer; mark the rows or items that are required instead'

function matrix(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const rows = surveyOptions(q.rows)
  const columns = surveyOptions(q.columns)
  const title = pickText(q.title) || name
  if (rows.length === 0) draft.skip(`${path}/rows`, 'a matrix without rows has nothing to answer')
  if (q.isRequired === true && q.isAllRowRequired !== true) draft.skip(`${path}/isRequired`, SOME_ROWS)
  if (isMeaningful(q.cells)) draft.skip(`${path}/cells`, 'the texts of single cells are not kept')
  return rows.map((row) => {
    const item = draft.field(`${name}_${row.id}`, 'radios', {
      options: columns,
      label: { value: titled(title, row.label) },
    })
    if (q.isAllRowRequired === true) item.data.validate = { required: true }
    draft.alias(`${name}.${row.id}`, item)
    return item
  })
}

/** multipletext: one field per item (typed by its inputType when it is a number, e-mail or date). */
function multipleText(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const title = pickText(q.title) || name
  if (q.isRequired === true) draft.skip(`${path}/isRequired`, SOME_ROWS)
  return listOf(q.items)
    .filter(isObject)
    .map((entry) => {
      const itemName = String(entry.name ?? '')
      const type = { number: 'number', email: 'email', date: 'date' }[String(entry.inputType)] ?? 'text'
      const item = draft.field(`${name}_${itemName}`, type, {
        label: { value: titled(title, pickText(entry.title) || itemName) },
      })
      if (entry.isRequired === true) item.data.validate = { required: true }
      const placeholder = pickText(entry.placeholder) || pickText(entry.placeHolder)
      if (placeholder) item.data.ref = { placeholder }
      draft.alias(`${name}.${itemName}`, item)
      return item
    })
}

/** The column type of a cell by its question type (cellType in matrices, type in dynamic panels). */
function columnType(cellType: string, cell: Json): ColumnType | undefined {
  switch (cellType) {
    case 'text':
      return cell.inputType === 'number' ? 'number' : cell.inputType === 'date' ? 'date' : 'text'
    case 'comment':
    case 'dropdown':
    case 'radiogroup':
    case 'checkbox':
    case 'tagbox':
      return 'text'
    case 'boolean':
      return 'boolean'
    case 'rating':
      return 'number'
    case 'expression':
      return 'formule'
    default:
      return undefined
  }
}

/** Cells become columns; an expression cell becomes a formula column when it reads only {row.x}. */
function cellColumns(
  draft: FormDraft,
  cells: unknown[],
  path: string,
  fallbackType: string,
  sharedChoices: unknown,
  columns: Columns
) {
  const formulas: [Json, string, string][] = []
  const byName = new Map<string, string>()
  cells.forEach((c, index) => {
    const here = `${path}/${index}`
    const cell = isObject(c) ? c : {}
    const cellType = String(cell.cellType ?? cell.type ?? fallbackType)
    const type = columnType(cellType === 'default' ? fallbackType : cellType, cell)
    const source = String(cell.name ?? '')
    if (!type) {
      draft.skip(here, `a table column cannot be a SurveyJS "${cellType}"`)
      return
    }
    const hasChoices =
      surveyOptions(cell.choices).length > 0 || (cell.choices === undefined && surveyOptions(sharedChoices).length > 0)
    if (type === 'text' && cellType !== 'text' && cellType !== 'comment' && hasChoices) {
      draft.skip(`${here}/choices`, 'a table column has no options; its cells take any text')
    }
    if (cell.isRequired === true) draft.skip(`${here}/isRequired`, 'table cells cannot be required')
    if (typeof cell.visibleIf === 'string')
      draft.skip(`${here}/visibleIf`, `columns have no conditions (${cell.visibleIf})`)
    const name = columns.add(source, pickText(cell.title) || source, type)
    byName.set(source.toLowerCase(), name)
    if (type === 'formule') formulas.push([columns.list[columns.list.length - 1]!, String(cell.expression ?? ''), here])
  })
  for (const [column, expression, here] of formulas) {
    const result = translateSurveyExpression(expression, (ref) => {
      const cell = /^row\.(.+)$/i.exec(ref)?.[1]
      const target = cell === undefined ? undefined : byName.get(cell.toLowerCase())
      return target === undefined ? undefined : { js: atom(target), kind: 'scalar' }
    })
    if (typeof result === 'string') draft.skip(`${here}/expression`, `not translated: ${result} (${expression})`)
    else column.formule = result.code
  }
}

const ROW_COUNTS = ['rowCount', 'minRowCount', 'maxRowCount', 'panelCount', 'minPanelCount', 'maxPanelCount']

/** matrixdynamic, matrixdropdown and paneldynamic → a table. */
function repeated(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const columns = new Columns()
  if (q.type === 'matrixdropdown') {
    const rows = surveyOptions(q.rows)
    columns.add('row', pickText(q.rowTitle), 'text')
    if (rows.length > 0) {
      const labels = rows.map((r) => r.label).join(', ')
      draft.skip(`${path}/rows`, `a table starts empty: its fixed rows (${labels}) are typed in the "row" column`)
    }
  }
  const cells = q.type === 'paneldynamic' ? 'templateElements' : 'columns'
  cellColumns(draft, listOf(q[cells]), `${path}/${cells}`, String(q.cellType ?? 'dropdown'), q.choices, columns)
  for (const key of ROW_COUNTS) {
    if (q[key] !== undefined) draft.skip(`${path}/${key}`, 'a table starts empty and has no limits on its rows')
  }
  return [draft.field(name, 'table', tableData(columns))]
}

export const MATRIX_MAKERS: Record<string, Maker> = {
  matrix,
  multipletext: multipleText,
  matrixdynamic: repeated,
  matrixdropdown: repeated,
  paneldynamic: repeated,
}
