/**
 * Form.io → jsonconfig. Layout containers (panel, fieldset, well, container, columns, table, tabs)
 * are flattened into rows of the page; a wizard's top-level panels become pages. A container's
 * condition, hidden and disabled flags pass to everything inside it.
 */
import { analyzeScript } from '@tramita/sandbox'
import { GRID_COLUMNS } from '../constants.js'
import type { FormConfigInput } from '../config.js'
import { formioCustom } from './custom-types.js'
import { FormDraft, type Condition } from './draft.js'
import { formioCondition } from './formio-conditions.js'
import { formioItems, isFormioLeaf } from './formio-fields.js'
import { formioHoldsItem, markItemHolder } from './formio-semantics.js'
import { pickText } from './source-text.js'
import { isMeaningful, isObject, listOf, positive, type DraftItem, type ImportResult, type Json } from './types.js'
import { useFormioI18n } from './validation.js'
import type { ImportOptions } from './types.js'

interface Scope {
  /** Grid columns the components at this level may take. */
  span: number
  conditions: Condition[]
  hidden: boolean
  disabled: boolean
}

const scale = (width: number, span: number) =>
  Math.min(GRID_COLUMNS, Math.max(1, Math.round((width * span) / GRID_COLUMNS)))

/** Places an item at this level: its width, the inherited conditions and flags. */
function place(draft: FormDraft, item: DraftItem, scope: Scope): void {
  draft.when(item, scope.conditions)
  if (scope.hidden) item.state = { ...item.state, show: false }
  if (scope.disabled) item.state = { ...item.state, natural: 'disabled' }
  if (scope.span < GRID_COLUMNS) item.data.width = scope.span
}

/** A container's title as a text element heading its rows. */
function heading(draft: FormDraft, c: Json, title: unknown, scope: Scope): string[][] {
  const text = pickText(title)
  if (text === '') return []
  const item = draft.element(typeof c.key === 'string' ? c.key : 'title', 'text', { value: `### ${text}` })
  place(draft, item, scope)
  return [[item.field_name]]
}

function walk(draft: FormDraft, components: unknown, path: string, scope: Scope): string[][] {
  return listOf(components).flatMap((c, index) => component(draft, c, `${path}/${index}`, scope))
}

/** Side-by-side groups: row r holds the r-th row of every group, spacers keeping later groups in place. */
function zip(draft: FormDraft, groups: { span: number; rows: string[][] }[]): string[][] {
  const height = Math.max(0, ...groups.map((g) => g.rows.length))
  const rows: string[][] = []
  for (let r = 0; r < height; r++) {
    const row: string[] = []
    let gaps: number[] = []
    for (const group of groups) {
      const cells = group.rows[r]
      if (!cells) {
        gaps.push(group.span)
        continue
      }
      for (const span of gaps) row.push(draft.element('spacer', 'separate', { width: span }).field_name)
      gaps = []
      row.push(...cells)
    }
    rows.push(row)
  }
  return rows
}

function columns(draft: FormDraft, c: Json, path: string, scope: Scope): string[][] {
  const list = listOf(c.columns)
  const groups = list.map((column, index) => {
    const col = isObject(column) ? column : {}
    if (positive(col.offset) !== undefined) draft.skip(`${path}/columns/${index}/offset`, 'no column offsets')
    const span = scale(positive(col.width) ?? GRID_COLUMNS / list.length, scope.span)
    return { span, rows: walk(draft, col.components, `${path}/columns/${index}/components`, { ...scope, span }) }
  })
  return zip(draft, groups)
}

/** A layout table: each of its rows is laid out like columns of equal width. */
function table(draft: FormDraft, c: Json, path: string, scope: Scope): string[][] {
  const rows = listOf(c.rows)
  const count = positive(c.numCols) ?? Math.max(1, ...rows.map((r) => listOf(r).length))
  const span = scale(GRID_COLUMNS / count, scope.span)
  return rows.flatMap((row, r) =>
    zip(
      draft,
      listOf(row).map((cell, i) => ({
        span,
        rows: walk(draft, isObject(cell) ? cell.components : [], `${path}/rows/${r}/${i}/components`, {
          ...scope,
          span,
        }),
      }))
    )
  )
}

function tabs(draft: FormDraft, c: Json, path: string, scope: Scope): string[][] {
  return listOf(c.components).flatMap((tab, index) => {
    if (!isObject(tab)) return []
    return [
      ...heading(draft, tab, tab.label, scope),
      ...walk(draft, tab.components, `${path}/components/${index}/components`, scope),
    ]
  })
}

function component(draft: FormDraft, raw: unknown, path: string, outer: Scope): string[][] {
  if (!isObject(raw)) {
    draft.skip(path, 'not a component')
    return []
  }
  // A custom type is read as the one the mapping file or its shape gives.
  const c = formioCustom(draft, raw, path)
  const type = String(c.type)
  const own = formioCondition(draft, c, path)
  const scope = {
    ...outer,
    conditions: own ? [...outer.conditions, own] : outer.conditions,
    hidden: outer.hidden || c.hidden === true,
    disabled: outer.disabled || c.disabled === true,
  }
  if (isFormioLeaf(type)) {
    const clears = scope.conditions.length > 0 && c.clearOnHide !== false
    const items = formioItems(draft, c, path)
    if (formioHoldsItem(c) && items.length === 1 && ['select', 'text'].includes(items[0]!.type)) {
      markItemHolder(items[0]!)
      draft.skip(
        `${path}/valueProperty`,
        "Form.io keeps the URL's whole chosen item here; this field keeps one text, which scripts read as the item's `.value`"
      )
    }
    return items.flatMap((item) => {
      if (clears) clearedWhenHidden.get(draft)?.push({ item, path })
      place(draft, item, scope)
      // A var is carried, never shown: it has no place on the layout.
      return item.type === 'var' ? [] : [[item.field_name]]
    })
  }
  switch (type) {
    case 'panel':
      return [...heading(draft, c, c.title, scope), ...walk(draft, c.components, `${path}/components`, scope)]
    case 'fieldset':
      return [...heading(draft, c, c.legend, scope), ...walk(draft, c.components, `${path}/components`, scope)]
    case 'well':
    case 'container':
      return walk(draft, c.components, `${path}/components`, scope)
    case 'columns':
      return columns(draft, c, path, scope)
    case 'table':
      return table(draft, c, path, scope)
    case 'tabs':
      return tabs(draft, c, path, scope)
    default:
      draft.skip(path, `no equivalent for the Form.io component "${type}"`)
      return []
  }
}

/** A wizard: each top-level panel is a page; anything else at the top joins the page before it. */
function wizard(draft: FormDraft, components: unknown[], scope: Scope): void {
  components.forEach((c, index) => {
    const path = `/components/${index}`
    if (isObject(c) && c.type === 'panel') {
      draft.page(pickText(c.title) || (typeof c.key === 'string' ? c.key : ''))
      const own = formioCondition(draft, c, path)
      const inner = { ...scope, conditions: own ? [own] : [], hidden: c.hidden === true, disabled: c.disabled === true }
      draft.addRows(walk(draft, c.components, `${path}/components`, inner))
    } else draft.addRows(component(draft, c, path, scope))
  })
}

/** The conditional fields Form.io empties while hidden (clearOnHide, on by default), per import. */
const clearedWhenHidden = new WeakMap<FormDraft, { item: DraftItem; path: string }[]>()

/**
 * Form.io empties a field while its condition hides it; a jsonconfig keeps the value. Where another
 * condition, formula or action reads such a field, the two can then differ: reported there.
 */
function reportCleared(draft: FormDraft, config: FormConfigInput): void {
  const scripts: { owner: string; source: string }[] = []
  for (const item of config.fields ?? []) {
    const data = (item?.data ?? {}) as Record<string, unknown>
    for (const key of ['show_with_formule', 'formule']) {
      if (typeof data[key] === 'string') scripts.push({ owner: String(item?.field_name), source: data[key] })
    }
  }
  for (const action of config.validations?.actions ?? []) {
    const steps = (action?.actions ?? []).map((step) => String((step?.config as Json | undefined)?.formula ?? ''))
    for (const source of [String(action?.conditions?.code ?? ''), ...steps]) scripts.push({ owner: '', source })
  }
  const readers = new Map<string, Set<string>>()
  for (const { owner, source } of scripts) {
    for (const name of analyzeScript(source).names) readers.set(name, (readers.get(name) ?? new Set()).add(owner))
  }
  for (const { item, path } of clearedWhenHidden.get(draft) ?? []) {
    if (![...(readers.get(item.field_name) ?? [])].some((owner) => owner !== item.field_name)) continue
    draft.skip(
      `${path}/clearOnHide`,
      'Form.io empties this field while its condition hides it; here it keeps its value, so conditions and formulas reading it may differ once it is hidden'
    )
  }
}

export function importFormio(json: unknown, options: ImportOptions = {}): ImportResult {
  if (!isObject(json) || !Array.isArray(json.components)) throw new Error('Not a Form.io form: it has no components')
  const draft = new FormDraft()
  draft.typeMap = options.typeMap?.formio ?? {}
  clearedWhenHidden.set(draft, [])
  const scope: Scope = { span: GRID_COLUMNS, conditions: [], hidden: false, disabled: false }
  const isWizard = json.display === 'wizard'
  useFormioI18n(draft, json.i18n)
  if (isMeaningful(json.title))
    draft.skip('/title', 'a jsonconfig has no title; the form keeps its name where it is published')
  if (json.display === 'pdf')
    draft.skip('/display', 'the PDF display (fields over a PDF) has no equivalent; the fields are laid out as a form')
  if (isWizard) wizard(draft, json.components, scope)
  else draft.addRows(walk(draft, json.components, '/components', scope))
  // Form.io's wizard submits from its own navigation; here a send button does.
  if (isWizard && !draft.hasType('send') && !draft.hasType('save'))
    draft.addRows([[draft.element('send', 'send').field_name]])
  const config: FormConfigInput = draft.finish(isWizard ? 'wizard' : 'form')
  reportCleared(draft, config)
  return { config, unmapped: draft.unmapped, format: 'formio' }
}
