/**
 * SurveyJS questions that hold several values: a single-choice matrix becomes one radios field per
 * row, multipletext one field per item, and the repeated ones (matrixdynamic, matrixdropdown,
 * paneldynamic) a repeating group whose cells are the columns (or the panel's questions). Rows of a
 * matrix keep their SurveyJS names ({matrix.row}) so that conditions reading them still translate.
 */
import { RowDraft, type FormDraft } from './draft.js'
import { applyCommon, reportLost, surveyCondition, surveyOptions } from './surveyjs-common.js'
import { FIELD_MAKERS, type Maker } from './surveyjs-fields.js'
import { keepCells, repeatData, rowCount, type Rows } from './repeat-group.js'
import { pickText } from './source-text.js'
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

/**
 * A matrix column as the question it is: its cellType ('default': the matrix's own, dropdown unless
 * set), with the matrix's choices when it has none of its own, as SurveyJS fills a column.
 */
function columnQuestion(column: Json, matrix: Json): Json {
  const own = String(column.cellType ?? 'default')
  const type = own === 'default' ? String(matrix.cellType ?? 'dropdown') : own
  const choices = column.choices === undefined ? matrix.choices : column.choices
  return { ...column, type, ...(choices === undefined ? {} : { choices }) }
}

/** The cells of a row, built by the question makers on the row's draft, each with its visibleIf. */
function cellsOf(row: RowDraft, questions: Json[], paths: string[]): DraftItem[] {
  return questions.flatMap((q, index) => {
    const here = paths[index]!
    const type = String(q.type)
    const make = FIELD_MAKERS[type]
    // A nested panel, an image or a text has no cell; an expression is a cell computed per row.
    if (!make) {
      row.skip(here, `a cell of a repeating group cannot be a SurveyJS "${type}"`)
      return []
    }
    const name = typeof q.name === 'string' && q.name !== '' ? q.name : type
    const cells = keepCells(row, make(row, q, here, name), here)
    for (const cell of cells) applyCommon(cell, q, { locale: row.sourceLocale })
    if (cells.length > 0) reportLost(row, q, here)
    const condition = surveyCondition(row, q, here)
    if (condition) for (const cell of cells) row.when(cell, [condition])
    return cells
  })
}

/** What a repeated question has that a group does not keep. */
const REPEATED_LOST: [string, string][] = [
  ['detailElements', 'rows have no detail panel'],
  ['detailPanelMode', 'rows have no detail panel'],
  ['confirmDelete', 'rows are removed without a confirmation'],
  ['templateTitle', 'rows are captioned "Fila n"'],
  ['templateVisibleIf', 'no conditions on whole rows'],
  ['rowsVisibleIf', 'no conditions on whole rows'],
  ['keyName', 'no check of repeated values in a column'],
]

/**
 * matrixdynamic, matrixdropdown and paneldynamic → a repeating group (types/repeat.ts): columns (or
 * the panel's template questions) become typed cells with their own required flag, choices and
 * visibleIf ({row.x}, {panel.x} read the same row); min / max row or panel counts bound the rows;
 * a matrixdropdown's fixed rows are min = max = their count, captioned by their texts.
 */
function repeated(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const row = new RowDraft(draft, true)
  const panels = q.type === 'paneldynamic'
  const key = panels ? 'templateElements' : 'columns'
  const entries = listOf(q[key])
  const questions: Json[] = []
  const paths: string[] = []
  entries.forEach((entry, index) => {
    const here = `${path}/${key}/${index}`
    if (!isObject(entry)) return draft.skip(here, 'not a question')
    for (const total of ['totalType', 'totalExpression'])
      if (isMeaningful(entry[total])) draft.skip(`${here}/${total}`, 'no totals under a column')
    questions.push(panels ? entry : columnQuestion(entry, q))
    paths.push(here)
  })
  const cells = cellsOf(row, questions, paths)
  for (const [lost, reason] of REPEATED_LOST) if (isMeaningful(q[lost])) draft.skip(`${path}/${lost}`, reason)
  return [draft.field(name, 'repeat', repeatData(cells, rowsOf(draft, q, path)))]
}

/** The rows a repeated question allows, from its counts; a matrixdropdown's are its fixed rows. */
function rowsOf(draft: FormDraft, q: Json, path: string): Rows {
  if (q.type === 'matrixdropdown') {
    const fixed = surveyOptions(q.rows)
    if (fixed.length === 0) draft.skip(`${path}/rows`, 'a matrix without rows has nothing to answer')
    return { min: fixed.length, max: fixed.length, labels: fixed.map((r) => r.label) }
  }
  const [count, least, most, add] =
    q.type === 'paneldynamic'
      ? ['panelCount', 'minPanelCount', 'maxPanelCount', 'panelAddText']
      : ['rowCount', 'minRowCount', 'maxRowCount', 'addRowText']
  const min = rowCount(q[least])
  const max = rowCount(q[most])
  const start = rowCount(q[count])
  // A group starts with its minimum of rows; SurveyJS's own starting count is not kept.
  if (start !== undefined && start !== (min ?? 0))
    draft.skip(`${path}/${count}`, `a group starts with ${min ?? 0} rows`)
  if (min !== undefined && max !== undefined && min > max) {
    draft.skip(`${path}/${least}`, `more rows asked (${min}) than allowed (${max})`)
    return { max, addText: pickText(q[add]) }
  }
  return { min, max, addText: pickText(q[add]) }
}

export const MATRIX_MAKERS: Record<string, Maker> = {
  matrix,
  multipletext: multipleText,
  matrixdynamic: repeated,
  matrixdropdown: repeated,
  paneldynamic: repeated,
}
