/**
 * SurveyJS → jsonconfig. Each page stays a page; panels are flattened into rows (their title as a
 * heading; their visibleIf, visible and readOnly pass to everything inside). A question with
 * startWithNewLine: false joins the row before it, and widths in percent become grid columns.
 */
import { GRID_COLUMNS } from '../constants.js'
import { surveyCustom } from './custom-types.js'
import { FormDraft, type Condition } from './draft.js'
import { applyCommon, hiddenForGood, reportLost, surveyCondition, surveyResolver } from './surveyjs-common.js'
import { translateSurveyExpression } from './surveyjs-emit.js'
import { FIELD_MAKERS } from './surveyjs-fields.js'
import { MATRIX_MAKERS } from './surveyjs-matrix.js'
import { surveyTriggers } from './surveyjs-triggers.js'
import { gridColumns, pickText } from './source-text.js'
import { isMeaningful, isObject, listOf, type DraftItem, type ImportResult, type Json } from './types.js'
import { surveyRequiredMessage } from './validation.js'
import type { ImportOptions } from './types.js'

const MAKERS = { ...FIELD_MAKERS, ...MATRIX_MAKERS }
const ELEMENTS = ['html', 'image']

interface Scope {
  conditions: Condition[]
  hidden: boolean
  readOnly: boolean
}

/** Survey settings with no place in the jsonconfig, reported when set. */
const SURVEY_LOST: [string, string][] = [
  ['completedHtml', 'no page shown after sending'],
  ['completedHtmlOnCondition', 'no page shown after sending'],
  ['navigateToUrl', 'no redirection after sending'],
  ['firstPageIsStarted', 'no start page'],
]

function place(draft: FormDraft, item: DraftItem, scope: Scope): void {
  draft.when(item, scope.conditions)
  if (scope.hidden) item.state = { ...item.state, show: false }
  if (scope.readOnly) item.state = { ...item.state, natural: 'readonly' }
}

/** A title and description as one markdown text element. */
function heading(
  draft: FormDraft,
  base: string,
  title: unknown,
  description: unknown,
  level: string
): DraftItem | undefined {
  const text = [pickText(title) && `${level} ${pickText(title)}`, pickText(description)].filter(Boolean).join('\n\n')
  return text ? draft.element(base, 'text', { value: text }) : undefined
}

function question(draft: FormDraft, q: Json, path: string): DraftItem[] {
  const type = String(q.type)
  const make = MAKERS[type]
  if (!make) {
    draft.skip(path, `no equivalent for the SurveyJS question "${type}"`)
    return []
  }
  const name = typeof q.name === 'string' && q.name !== '' ? q.name : type
  const items = make(draft, q, path, name)
  const single = items.length === 1
  for (const item of items) {
    if (!ELEMENTS.includes(item.type))
      applyCommon(item, q, { label: single, required: single, locale: draft.sourceLocale })
    else if (hiddenForGood(q)) item.state = { show: false }
  }
  if (items.some((item) => !ELEMENTS.includes(item.type))) reportLost(draft, q, path)
  surveyRequiredMessage(draft, items, q, path)
  return items
}

/** Questions in one row without a width share what the others leave of the 12 columns, as in SurveyJS. */
function shareRow(items: DraftItem[]): void {
  const open = items.filter((item) => item.data.width === undefined)
  const taken = items.reduce((sum, item) => sum + (typeof item.data.width === 'number' ? item.data.width : 0), 0)
  const each = Math.max(1, Math.floor((GRID_COLUMNS - taken) / Math.max(1, open.length)))
  for (const item of open) item.data.width = each
}

/** Rows of a list of elements; rows holding several questions share the 12 columns. */
function walk(draft: FormDraft, elements: unknown, path: string, outer: Scope): string[][] {
  const rows: string[][] = []
  let canJoin = false
  listOf(elements).forEach((raw, index) => {
    const here = `${path}/${index}`
    if (!isObject(raw)) return draft.skip(here, 'not a question')
    // A custom type is read as the one the mapping file or its shape gives (or is already its text element).
    const custom = surveyCustom(draft, raw, here)
    const element = Array.isArray(custom) ? raw : custom
    const own = surveyCondition(draft, element, here)
    const scope = {
      conditions: own ? [...outer.conditions, own] : outer.conditions,
      hidden: outer.hidden || hiddenForGood(element),
      readOnly: outer.readOnly || element.readOnly === true,
    }
    if (element.type === 'panel') {
      const title = heading(draft, String(element.name ?? 'panel'), element.title, element.description, '###')
      if (title) place(draft, title, scope)
      if (element.isRequired === true)
        draft.skip(`${here}/isRequired`, 'a panel cannot be required; mark its questions')
      rows.push(...(title ? [[title.field_name]] : []), ...walk(draft, element.elements, `${here}/elements`, scope))
      canJoin = false
      return
    }
    const items = Array.isArray(custom) ? custom : question(draft, element, here)
    items.forEach((item) => place(draft, item, scope))
    const width = typeof element.width === 'string' ? /^\s*(\d+(?:\.\d+)?)%\s*$/.exec(element.width) : null
    if (items.length === 1 && width) items[0]!.data.width = gridColumns(Number(width[1]), 100)
    if (items.length === 1 && element.startWithNewLine === false && canJoin)
      rows[rows.length - 1]!.push(items[0]!.field_name)
    else rows.push(...items.map((item) => [item.field_name]))
    canJoin = items.length === 1
  })
  for (const row of rows.filter((r) => r.length > 1)) shareRow(row.map((name) => draft.item(name)!))
  return rows
}

/** The survey's pages, or its top-level elements / questions as one page; with their source paths. */
function pagesOf(json: Json): { page: Json; path: string; elements: unknown; elementsPath: string }[] {
  if (Array.isArray(json.pages)) {
    return json.pages.map((raw, index) => {
      const page = isObject(raw) ? raw : {}
      const key = Array.isArray(page.elements) || !Array.isArray(page.questions) ? 'elements' : 'questions'
      return { page, path: `/pages/${index}`, elements: page[key], elementsPath: `/pages/${index}/${key}` }
    })
  }
  const key = Array.isArray(json.elements) ? 'elements' : 'questions'
  return [{ page: {}, path: '', elements: json[key], elementsPath: `/${key}` }]
}

/**
 * calculatedValues: each becomes a var field (any value, not shown) whose formula is its expression, so
 * conditions and formulas reading {name} read it; one not included in the result is not saved. An
 * expression without a translation is reported with it.
 */
function calculatedValues(draft: FormDraft, json: Json): void {
  const rows: string[][] = []
  listOf(json.calculatedValues).forEach((entry, index) => {
    const path = `/calculatedValues/${index}`
    const name = isObject(entry) && typeof entry.name === 'string' ? entry.name.trim() : ''
    const source = isObject(entry) && typeof entry.expression === 'string' ? entry.expression : ''
    if (!isObject(entry) || name === '' || source.trim() === '')
      return draft.skip(path, 'a calculated value needs a name and an expression')
    const item = draft.field(name, 'var', { var_type: 'json' })
    if (entry.includeIntoResult !== true) item.saveable = false
    draft.later(() => {
      const result = translateSurveyExpression(source, surveyResolver(draft))
      if (typeof result === 'string') draft.skip(`${path}/expression`, `not translated: ${result} (${source})`)
      else item.data.formule = result.code
    })
    rows.push([item.field_name])
  })
  draft.addRows(rows)
}

/** The send button at the end: SurveyJS completes from its own navigation, a jsonconfig from this. */
function sendButton(draft: FormDraft, json: Json): void {
  if (json.mode === 'display') return
  const value = pickText(json.completeText)
  draft.addRows([[draft.element('send', 'send', value ? { value } : {}).field_name]])
}

export function importSurveyJs(json: unknown, options: ImportOptions = {}): ImportResult {
  if (
    !isObject(json) ||
    !(Array.isArray(json.pages) || Array.isArray(json.elements) || Array.isArray(json.questions))
  ) {
    throw new Error('Not a SurveyJS survey: it has no pages, elements or questions')
  }
  const draft = new FormDraft(true)
  draft.typeMap = options.typeMap?.surveyjs ?? {}
  if (typeof json.locale === 'string' && json.locale !== '') draft.sourceLocale = json.locale
  const pages = pagesOf(json)
  pages.forEach(({ page, path, elements, elementsPath }, index) => {
    draft.page(pickText(page.title) || String(page.name ?? ''))
    const own = surveyCondition(draft, page, path)
    const scope = {
      conditions: own ? [own] : [],
      hidden: hiddenForGood(page),
      readOnly: page.readOnly === true || json.mode === 'display',
    }
    const title = index === 0 ? heading(draft, 'survey_title', json.title, json.description, '##') : undefined
    if (title) draft.addRows([[title.field_name]])
    const intro = heading(draft, `${String(page.name ?? 'page')}_intro`, undefined, page.description, '')
    if (intro) {
      place(draft, intro, scope)
      draft.addRows([[intro.field_name]])
    }
    draft.addRows(walk(draft, elements, elementsPath, scope))
  })
  calculatedValues(draft, json)
  surveyTriggers(draft, json)
  for (const [key, reason] of SURVEY_LOST) if (isMeaningful(json[key])) draft.skip(`/${key}`, reason)
  if (json.questionsOnPageMode === 'questionPerPage')
    draft.skip('/questionsOnPageMode', 'pages show all their questions')
  sendButton(draft, json)
  const display = pages.length > 1 && json.questionsOnPageMode !== 'singlePage' ? 'wizard' : 'form'
  return { config: draft.finish(display), unmapped: draft.unmapped, format: 'surveyjs' }
}
