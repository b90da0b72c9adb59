/**
 * Form.io leaf components → jsonconfig fields and elements. Each maker builds the items of one
 * component type; `formioItems` adds what every component shares (label, help texts, required,
 * hidden, disabled, persistence) and reports the properties that have no place in the jsonconfig.
 */
import type { FormDraft } from './draft.js'
import { hasTags, htmlAsText, textElementOf } from './html-text.js'
import { formioGrid } from './formio-grid.js'
import { formioOptions } from './formio-options.js'
import { formioValidation } from './validation.js'
import { translateFormioScript } from './formio-script.js'
import { formioScriptBody } from './formio-script-body.js'
import { formioLogic } from './formio-logic.js'
import { findKey, formioVars } from './formio-conditions.js'
import { translateJsonLogic, type Kind } from './jsonlogic.js'
import { at, convertMask, pickText, pixels, splitAccept } from './source-text.js'
import { isMeaningful, isObject, listOf, part, positive, type DraftItem, type Json } from './types.js'

type Maker = (draft: FormDraft, c: Json, path: string, key: string) => DraftItem[]

/** Form.io's default number of decimals: any number a JavaScript number holds. */
const ANY_DECIMALS = 20

const NO_DEFAULT = 'the jsonconfig has no default values (an autocomplete rule with action "value" can set one)'

/** Properties with a meaning the jsonconfig cannot hold, reported when set. */
const LOST: [string, string][] = [
  ['defaultValue', NO_DEFAULT],
  ['customDefaultValue', NO_DEFAULT],
  ['validate.minWords', 'no word counts'],
  ['validate.maxWords', 'no word counts'],
  ['validate.custom', 'custom validation code is not translated'],
  ['validate.json', 'JSON Logic validation has no translation'],
  ['prefix', 'no prefix text'],
  ['suffix', 'no suffix text'],
  ['unique', 'no uniqueness check: a form alone cannot see the values of other cases'],
  ['properties', 'custom properties have no place in the jsonconfig'],
]

function textLike(type: string, extra: Json = {}): Maker {
  return (draft, c, _path, key) => {
    const item = draft.field(key, type, { ...extra })
    const ref = part(item.data, 'ref')
    const limit = positive(at(c, 'validate.maxLength'))
    if (limit !== undefined) ref.limit = limit
    const pattern = at(c, 'validate.pattern')
    if (typeof pattern === 'string' && pattern !== '') ref.pattern = pattern
    if (typeof c.inputMask === 'string' && c.inputMask !== '') ref.mask = convertMask(c.inputMask, '*')
    if (type === 'textarea' && positive(c.rows) !== undefined) item.data.rows = Math.round(positive(c.rows)!)
    return [item]
  }
}

/** number and currency: bounds (a negative bound means none here, so it cannot be kept) and decimals. */
function numberLike(type: 'number' | 'money', decimals: number): Maker {
  return (draft, c, path, key) => {
    const item = draft.field(key, type)
    const limit: Json = {}
    for (const bound of ['min', 'max'] as const) {
      const raw = at(c, `validate.${bound}`)
      const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
      if (typeof value !== 'number' || !Number.isFinite(value)) continue
      if (value >= 0) limit[bound] = value
      else draft.skip(`${path}/validate/${bound}`, 'a negative bound means "no bound" in the jsonconfig')
    }
    if (Object.keys(limit).length > 0) item.data.limit = limit
    const places = typeof c.decimalLimit === 'number' ? c.decimalLimit : decimals
    item.data.decimals = { enabled: places > 0, significant: places }
    if (type === 'money') item.data.money = { currency: typeof c.currency === 'string' ? c.currency : 'USD' }
    return [item]
  }
}

function choices(type: 'select' | 'list' | 'radios', multiple: boolean): Maker {
  return (draft, c, path, key) => {
    const item = draft.field(key, type)
    const source = type === 'select' ? (c.dataSrc ?? 'values') : 'values'
    if (source === 'values') item.data.options = formioOptions(type === 'select' ? at(c, 'data.values') : c.values)
    else {
      item.data.options = []
      draft.skip(`${path}/dataSrc`, `options from "${String(source)}" are not imported; the field has no options`)
    }
    if (multiple || (type === 'select' && c.multiple === true)) item.data.multiple = true
    return [item]
  }
}

function dateTime(draft: FormDraft, c: Json, path: string, key: string): DraftItem[] {
  for (const bound of ['minDate', 'maxDate']) {
    if (isMeaningful(at(c, `datePicker.${bound}`))) draft.skip(`${path}/datePicker/${bound}`, 'no date bounds')
  }
  if (c.enableDate === false) return [draft.field(key, 'time')]
  return [draft.field(key, 'date', c.enableTime === false ? {} : { date_type: 'datetime' })]
}

function file(draft: FormDraft, c: Json, path: string, key: string): DraftItem[] {
  const item = draft.field(key, 'file', { ref: { limit: c.multiple === true ? -1 : 1 } })
  if (typeof c.filePattern === 'string') {
    const { ext, other } = splitAccept(c.filePattern)
    if (ext.length > 0) item.data.ext = ext
    if (other.length > 0) draft.skip(`${path}/filePattern`, `only extensions can be allowed, not ${other.join(', ')}`)
  }
  for (const size of ['fileMinSize', 'fileMaxSize']) {
    if (isMeaningful(c[size])) draft.skip(`${path}/${size}`, 'no file size limits')
  }
  return [item]
}

function signature(draft: FormDraft, c: Json, _path: string, key: string): DraftItem[] {
  const height = pixels(c.height)
  return [draft.field(key, 'signature', height === undefined ? {} : { height })]
}

function htmlElement(draft: FormDraft, c: Json, _path: string, key: string): DraftItem[] {
  const tag = typeof c.tag === 'string' && /^[A-Za-z][A-Za-z0-9-]*$/.test(c.tag) ? c.tag : 'p'
  const attrs = listOf(c.attrs)
    .filter(isObject)
    .filter((a) => typeof a.attr === 'string' && /^[A-Za-z_:][A-Za-z0-9_:.-]*$/.test(a.attr))
    .map((a) => ` ${String(a.attr)}="${String(a.value ?? '').replace(/"/g, '&quot;')}"`)
    .join('')
  return [htmlOrText(draft, key, `<${tag}${attrs}>${pickText(c.content)}</${tag}>`)]
}

function htmlOrText(draft: FormDraft, key: string, html: string): DraftItem {
  const { type, data } = textElementOf(html)
  return draft.element(key, type, data)
}

/** A label or description as plain text: HTML in it is read for its words. */
const plain = (text: string) => (hasTags(text) ? htmlAsText(text) : text)

function button(draft: FormDraft, c: Json, path: string, key: string): DraftItem[] {
  const action = c.action ?? 'submit'
  const value = pickText(c.label)
  if (action === 'submit') return [draft.element(key, 'send', value ? { value } : {})]
  if (action === 'saveState') return [draft.element(key, 'save', value ? { value } : {})]
  draft.skip(path, `a button with action "${String(action)}" has no equivalent`)
  return []
}

function hidden(draft: FormDraft, c: Json, _path: string, key: string): DraftItem[] {
  const sample = c.defaultValue
  const varType =
    typeof sample === 'number' ? 'number' : typeof sample === 'object' && sample !== null ? 'json' : 'text'
  return [draft.field(key, 'var', { var_type: varType })]
}

/** A Form.io survey: one radios field per question, its values as the options. */
function survey(draft: FormDraft, c: Json, _path: string, key: string): DraftItem[] {
  const options = formioOptions(c.values)
  const title = pickText(c.label)
  return formioOptions(c.questions).map((q) => {
    const item = draft.field(`${key}_${q.id}`, 'radios', {
      options,
      label: { value: title ? `${title}: ${q.label}` : q.label },
    })
    draft.alias(`${key}.${q.id}`, item)
    return item
  })
}

const MAKERS: Record<string, Maker> = {
  textfield: textLike('text'),
  password: textLike('text', { password: true }),
  textarea: textLike('textarea'),
  email: textLike('email'),
  url: textLike('text'),
  phoneNumber: textLike('celular'),
  number: numberLike('number', ANY_DECIMALS),
  currency: numberLike('money', 2),
  checkbox: (draft, _c, _p, key) => [draft.field(key, 'checkbox')],
  selectboxes: choices('list', true),
  select: choices('select', false),
  radio: choices('radios', false),
  datetime: dateTime,
  day: (draft, _c, _p, key) => [draft.field(key, 'date')],
  time: (draft, _c, _p, key) => [draft.field(key, 'time')],
  file,
  signature,
  content: (draft, c, _p, key) => [htmlOrText(draft, key, pickText(c.html))],
  htmlelement: htmlElement,
  button,
  hidden,
  datagrid: (draft, c, path, key) => formioGrid(draft, c, path, key, formioItems),
  editgrid: (draft, c, path, key) => formioGrid(draft, c, path, key, formioItems),
  survey,
}

export const isFormioLeaf = (type: string): boolean => type in MAKERS

/** What every field shares; a label already set (survey rows) is kept. */
function applyCommon(item: DraftItem, c: Json): void {
  const label = part(item.data, 'label')
  if (label.value === undefined && pickText(c.label) !== '') label.value = plain(pickText(c.label))
  if (pickText(c.description) !== '') label.description = plain(pickText(c.description))
  if (Object.keys(label).length === 0) delete item.data.label
  const ref = part(item.data, 'ref')
  if (pickText(c.tooltip) !== '') ref.tooltip = pickText(c.tooltip)
  const placeholder = pickText(c.placeholder)
  if (placeholder !== '') {
    if (item.type === 'select') item.data.placeholder = placeholder
    else ref.placeholder = placeholder
  }
  if (Object.keys(ref).length === 0) delete item.data.ref
  if (at(c, 'validate.required') === true) item.data.validate = { required: true }
  if (c.persistent === false || c.persistent === 'client-only') item.saveable = false
  if (c.disabled === true) item.state = { ...item.state, natural: 'disabled' }
}

/** Reports, once per component, the properties the jsonconfig cannot hold. */
function reportLost(draft: FormDraft, c: Json, path: string): void {
  for (const [key, reason] of LOST) {
    // A grid's minLength is its minimum of rows (formio-grid.ts).
    if (key === 'validate.minLength' && GRIDS.includes(String(c.type))) continue
    if (isMeaningful(at(c, key))) draft.skip(`${path}/${key.replace('.', '/')}`, reason)
  }
  if (c.multiple === true && !['select', 'file'].includes(String(c.type))) {
    draft.skip(`${path}/multiple`, 'a field holds one value here, not a list of them')
  }
}

/** What each kind of field can take from a JSON Logic calculation as Form.io stores it, unchanged. */
const CALCULATED: Record<string, Kind> = {
  number: 'number',
  money: 'number',
  text: 'string',
  textarea: 'string',
  checkbox: 'boolean',
}

/** A JSON Logic calculation's formula, or why it has none. */
function logicFormula(draft: FormDraft, item: DraftItem, logic: unknown): string {
  const result = translateJsonLogic(logic, formioVars(draft))
  if (typeof result === 'string') return `not translated: ${result}`
  const holds = CALCULATED[item.type]
  if (!holds || result.kinds.size !== 1 || !result.kinds.has(holds)) {
    return `the calculation may give ${[...result.kinds].join(' or ')}, which a ${item.type} field does not hold as Form.io does`
  }
  item.data.formule = result.js.code
  return ''
}

/** calculateValue → formule: one `value = ...` over data.x, or a JSON Logic rule (jsonlogic.ts). */
function formula(draft: FormDraft, item: DraftItem, c: Json, path: string): void {
  const calculate = c.calculateValue
  if (isObject(calculate) || Array.isArray(calculate)) {
    draft.later(() => {
      const reason = logicFormula(draft, item, calculate)
      if (reason !== '') draft.skip(`${path}/calculateValue`, reason)
    })
    return
  }
  if (typeof calculate !== 'string' || calculate.trim() === '') return
  draft.later(() => {
    const find = (key: string) => findKey(draft, key)
    const result = translateFormioScript(calculate, 'value', find, draft.readsRows)
    if (typeof result === 'object') return void (item.data.formule = result.code)
    // Statements: the whole script as the formula (formio-script-body.ts); a grid's cells read rows, which it does not.
    const body = draft.readsRows ? { refused: result } : formioScriptBody(calculate, 'value', find)
    if (typeof body === 'string') item.data.formule = body
    else draft.skip(`${path}/calculateValue`, `not translated: ${body.refused}`)
  })
}

const ELEMENTS = ['html', 'send', 'save']
const GRIDS = ['datagrid', 'editgrid']

/** The items of a leaf component (several for a survey, none for what is skipped). */
export function formioItems(draft: FormDraft, c: Json, path: string): DraftItem[] {
  const type = String(c.type)
  const key = typeof c.key === 'string' && c.key !== '' ? c.key : type
  const items = MAKERS[type]!(draft, c, path, key)
  const fields = items.filter((item) => !ELEMENTS.includes(item.type))
  for (const item of fields) {
    applyCommon(item, c)
    formioValidation(draft, item, c, path)
  }
  for (const item of items) if (c.hidden === true) item.state = { ...item.state, show: false }
  if (fields.length > 0) reportLost(draft, c, path)
  if (fields.length === 1) formula(draft, fields[0]!, c, path)
  if (fields.length === 1) formioLogic(draft, fields[0]!, c, path)
  else if (isMeaningful(c.logic))
    draft.skip(`${path}/logic`, 'logic on a component that is not one field is not carried')
  return items
}
