/**
 * SurveyJS questions → jsonconfig fields and elements: one maker per question type. Matrices and
 * repeated groups are in surveyjs-matrix.ts; panels and pages in surveyjs.ts.
 */
import type { FormDraft } from './draft.js'
import { YES_NO } from './values.js'
import { parseSurveyExpression } from './surveyjs-expression.js'
import { NUMERIC_FUNCTIONS, translateSurveyExpression } from './surveyjs-emit.js'
import { surveyOptions, surveyResolver } from './surveyjs-common.js'
import { convertMask, keepTranslations, pickText, pixels, splitAccept } from './source-text.js'
import { call, literal, orElse } from './js.js'
import { isMeaningful, isObject, listOf, part, positive, type DraftItem, type Json } from './types.js'
import { keepSurveyMessage, MIN_LENGTH_TYPES, surveyPattern } from './validation.js'
import type { RuleMessage } from '../schema/common.js'

export type Maker = (draft: FormDraft, q: Json, path: string, name: string) => DraftItem[]

/** SurveyJS numbers take any decimals; 20 keeps what a JavaScript number holds. */
const ANY_DECIMALS = 20
const MAX_LEVELS = 10

/** The field type of a text question's inputType, with the data it implies. */
const INPUT_TYPES: Record<string, [string, Json]> = {
  text: ['text', {}],
  number: ['number', { decimals: { enabled: true, significant: ANY_DECIMALS } }],
  range: ['number', { decimals: { enabled: true, significant: ANY_DECIMALS } }],
  email: ['email', {}],
  date: ['date', {}],
  'datetime-local': ['date', { date_type: 'datetime' }],
  datetime: ['date', { date_type: 'datetime' }],
  month: ['date', { date_type: 'month' }],
  time: ['time', {}],
  tel: ['celular', {}],
  password: ['text', { password: true }],
  url: ['text', {}],
}

const TEXT_TYPES = ['text', 'textarea', 'email', 'celular']

/** Number bounds; a negative bound means "none" in the jsonconfig, so it is reported instead. */
function bounds(draft: FormDraft, item: DraftItem, values: { min?: unknown; max?: unknown }, path: string): void {
  for (const bound of ['min', 'max'] as const) {
    const raw = values[bound]
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
    if (typeof value !== 'number' || !Number.isFinite(value)) continue
    if (value >= 0) part(item.data, 'limit')[bound] = value
    else draft.skip(path, 'a negative bound means "no bound" in the jsonconfig')
  }
}

/**
 * Validators: numeric bounds, text lengths, regex and e-mail map, each with its message (`text`, in
 * every language its locale map gives); the others are reported.
 */
function validators(draft: FormDraft, item: DraftItem, q: Json, path: string): void {
  listOf(q.validators).forEach((v, index) => {
    const here = `${path}/validators/${index}`
    const validator = isObject(v) ? v : {}
    const ref = part(item.data, 'ref')
    let worded = false
    const word = (rule: RuleMessage) => {
      if (!isMeaningful(validator.text)) return
      worded = true
      if (!keepSurveyMessage(item, rule, validator.text, draft.sourceLocale))
        draft.skip(`${here}/text`, `a ${item.type} field has no ${rule} message`)
    }
    if (validator.type === 'numeric' && item.type === 'number') {
      bounds(draft, item, { min: validator.minValue, max: validator.maxValue }, here)
      const limit = isObject(item.data.limit) ? item.data.limit : {}
      if (validator.minValue !== undefined && typeof limit.min === 'number') word('min')
      if (validator.maxValue !== undefined && typeof limit.max === 'number') word('max')
    } else if (validator.type === 'text' && TEXT_TYPES.includes(item.type)) {
      if (positive(validator.maxLength) !== undefined) {
        ref.limit = positive(validator.maxLength)
        word('max_length')
      }
      if (positive(validator.minLength) !== undefined) {
        if (MIN_LENGTH_TYPES.includes(item.type)) {
          ref.min_length = Math.ceil(positive(validator.minLength)!)
          word('min_length')
        } else draft.skip(`${here}/minLength`, 'a minimum length is kept for text, textarea and e-mail fields only')
      }
      if (validator.allowDigits === false)
        draft.skip(`${here}/allowDigits`, 'digits cannot be forbidden (a pattern can)')
    } else if (validator.type === 'regex' && typeof validator.regex === 'string' && !ref.pattern) {
      ref.pattern = surveyPattern(validator.regex)
      word('pattern')
      if (validator.caseInsensitive === true || validator.insensitive === true)
        draft.skip(`${here}/caseInsensitive`, 'a pattern here tells capitals from small letters')
    } else if (validator.type === 'regex' && ref.pattern) {
      draft.skip(here, 'a field keeps one pattern; this is a second one')
    } else if (validator.type === 'email' && (item.type === 'text' || item.type === 'email')) {
      item.type = 'email'
      word('email')
    } else draft.skip(here, `the "${String(validator.type)}" validator has no equivalent here`)
    // A message whose rule was not kept (a celular's minimum length) is reported, unless the whole validator was.
    if (isMeaningful(validator.text) && !worded && draft.unmapped.at(-1)?.path !== here)
      draft.skip(`${here}/text`, 'its rule is not kept, so neither is its message')
  })
}

function text(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const inputType = typeof q.inputType === 'string' ? q.inputType.toLowerCase() : 'text'
  const [type, data] = INPUT_TYPES[inputType] ?? ['text', {}]
  if (!INPUT_TYPES[inputType]) draft.skip(`${path}/inputType`, `no "${inputType}" input; the field takes text`)
  const item = draft.field(name, type, JSON.parse(JSON.stringify(data)) as Json)
  if (type === 'number') bounds(draft, item, { min: q.min, max: q.max }, path)
  else if ((type === 'date' || type === 'time') && (q.min !== undefined || q.max !== undefined)) {
    draft.skip(`${path}/min`, 'no date or time bounds')
  }
  if (TEXT_TYPES.includes(type) && positive(q.maxLength) !== undefined)
    part(item.data, 'ref').limit = positive(q.maxLength)
  if (type === 'text' && listOf(q.dataList).length > 0) item.data.autocomplete = listOf(q.dataList).map(pickText)
  const mask = isObject(q.maskSettings) ? q.maskSettings.pattern : undefined
  if (q.maskType === 'pattern' && typeof mask === 'string') part(item.data, 'ref').mask = convertMask(mask, '#')
  else if (typeof q.maskType === 'string' && q.maskType !== 'none')
    draft.skip(`${path}/maskType`, `no "${q.maskType}" mask`)
  validators(draft, item, q, path)
  return [item]
}

function comment(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const item = draft.field(
    name,
    'textarea',
    positive(q.rows) !== undefined ? { rows: Math.round(positive(q.rows)!) } : {}
  )
  if (positive(q.maxLength) !== undefined) part(item.data, 'ref').limit = positive(q.maxLength)
  validators(draft, item, q, path)
  return [item]
}

/** Choices, or the numbers choicesMin..choicesMax of a dropdown. */
function options(q: Json) {
  const list = surveyOptions(q.choices)
  const min = Number(q.choicesMin)
  const max = Number(q.choicesMax)
  if (list.length > 0 || !Number.isFinite(min) || !Number.isFinite(max)) return list
  const step = positive(q.choicesStep) ?? 1
  const numbers: { id: number; label: string }[] = []
  for (let n = min; n <= max && numbers.length < 1000; n += step) numbers.push({ id: n, label: String(n) })
  return numbers
}

function choices(type: 'select' | 'list' | 'radios', multiple: boolean): Maker {
  return (draft, q, _path, name) => {
    const data: Json = { options: options(q) }
    if (multiple) data.multiple = true
    if (q.choicesOrder === 'random') data.order_random = true
    if (q.choicesOrder === 'asc' || q.choicesOrder === 'desc')
      Object.assign(data, { order: true, asc: q.choicesOrder === 'asc' })
    const item = draft.field(name, type, data)
    // Option texts in other languages, named by the option's id as translations name list entries.
    for (const choice of listOf(q.choices)) {
      if (!isObject(choice) || (typeof choice.value !== 'string' && typeof choice.value !== 'number')) continue
      const shown = pickText(choice.text) || String(choice.value)
      keepTranslations(item, `options.${choice.value}.label`, choice.text, shown, draft.sourceLocale)
    }
    return [item]
  }
}

/**
 * A yes / no question. SurveyJS starts it unanswered (`{x} = false` is false at load, and a required one
 * takes either answer), which a switch cannot be: it becomes radios Sí / No (its labelTrue and
 * labelFalse when given) holding 'true' or 'false', '' until answered; conditions read it as yes/no
 * (values.ts). Drawn as a checkbox it stays one, which starts unchecked: that is reported.
 */
function boolean(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  for (const key of ['valueTrue', 'valueFalse']) {
    if (q[key] !== undefined) draft.skip(`${path}/${key}`, 'the value is always true or false here')
  }
  if (q.renderAs === 'checkbox') {
    const texts: Json = {}
    if (pickText(q.labelTrue) !== '') texts.true = pickText(q.labelTrue)
    if (pickText(q.labelFalse) !== '') texts.false = pickText(q.labelFalse)
    draft.skip(`${path}/renderAs`, 'a checkbox starts unchecked (false), where SurveyJS starts it unanswered')
    return [draft.field(name, 'checkbox', Object.keys(texts).length > 0 ? { options: texts } : {})]
  }
  const options = [
    { id: YES_NO[0], label: pickText(q.labelTrue) || 'Sí' },
    { id: YES_NO[1], label: pickText(q.labelFalse) || 'No' },
  ]
  return [draft.field(name, 'radios', { options })]
}

/** rating → level. Levels count from 1, so another start or step is reported. */
function rating(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const values = surveyOptions(q.rateValues)
  const min = typeof q.rateMin === 'number' ? q.rateMin : 1
  const step = typeof q.rateStep === 'number' ? q.rateStep : 1
  const max = typeof q.rateMax === 'number' ? q.rateMax : 5
  let levels = values.length || positive(q.rateCount) || Math.floor((max - min) / step) + 1
  if (levels > MAX_LEVELS) {
    draft.skip(`${path}/rateMax`, `at most ${MAX_LEVELS} levels; ${levels} were asked`)
    levels = MAX_LEVELS
  }
  if (values.length > 0 && values.some((v, i) => Number(v.id) !== i + 1)) {
    draft.skip(`${path}/rateValues`, 'levels hold 1..N; the custom values are kept as labels only')
  } else if (values.length === 0 && (min !== 1 || step !== 1)) {
    draft.skip(`${path}/rateMin`, `levels hold 1..${levels}, not ${min}..${max} by ${step}`)
  }
  const item = draft.field(name, 'level', { levels: Math.max(1, Math.round(levels)) })
  const labels = values.slice(0, levels).map((v) => v.label)
  if (labels.length === 0) {
    labels.length = levels
    labels.fill('')
    labels[0] = pickText(q.minRateDescription)
    labels[levels - 1] = pickText(q.maxRateDescription) || labels[levels - 1]!
  }
  if (labels.some((l) => l !== '')) item.data.body = { shape: labels.map((label) => ({ label })) }
  return [item]
}

function file(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const item = draft.field(name, 'file', { ref: { limit: q.allowMultiple === true ? -1 : 1 } })
  if (typeof q.acceptedTypes === 'string') {
    const { ext, other } = splitAccept(q.acceptedTypes)
    if (ext.length > 0) item.data.ext = ext
    if (other.length > 0) draft.skip(`${path}/acceptedTypes`, `only extensions can be allowed, not ${other.join(', ')}`)
  }
  if (positive(q.maxSize) !== undefined) draft.skip(`${path}/maxSize`, 'no file size limits')
  if (q.allowImagesPreview === false) item.data.preview = false
  return [item]
}

/**
 * expression → a read-only field computed by its formula: a number when the expression is arithmetic
 * or displayed as a number, otherwise a text (the result is turned into text, as it is shown).
 */
function expression(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  const source = typeof q.expression === 'string' ? q.expression : ''
  const style = q.displayStyle
  let numeric = style === 'decimal' || style === 'percent' || style === 'currency'
  try {
    const tree = parseSurveyExpression(source)
    numeric ||=
      (tree.t === 'bin' && ['+', '-', '*', '/', '%', '^'].includes(tree.op)) ||
      (tree.t === 'call' && NUMERIC_FUNCTIONS.has(tree.name.toLowerCase()))
  } catch {
    // Reported below, when the translation fails.
  }
  const type = style === 'currency' ? 'money' : numeric ? 'number' : 'text'
  const data: Json = {}
  if (type !== 'text') {
    const places =
      typeof q.maximumFractionDigits === 'number' ? q.maximumFractionDigits : type === 'money' ? 2 : ANY_DECIMALS
    data.decimals = { enabled: places > 0, significant: places }
  }
  if (type === 'money' && typeof q.currency === 'string') data.money = { currency: q.currency }
  const item = draft.field(name, type, data)
  item.state = { natural: 'readonly' }
  draft.later(() => {
    const result = translateSurveyExpression(source, surveyResolver(draft))
    if (typeof result === 'string') draft.skip(`${path}/expression`, `not translated: ${result} (${source})`)
    else item.data.formule = type === 'text' ? call('String', [orElse(result, literal(''))]).code : result.code
  })
  return [item]
}

function image(draft: FormDraft, q: Json, _path: string, name: string): DraftItem[] {
  const height = pixels(q.imageHeight)
  return [draft.element(name, 'image', { src: pickText(q.imageLink), ...(height === undefined ? {} : { height }) })]
}

/** imagepicker → a choice list; the pictures themselves are reported. */
function imagePicker(draft: FormDraft, q: Json, path: string, name: string): DraftItem[] {
  draft.skip(`${path}/choices`, 'choices are texts here; the pictures are not kept')
  return choices(q.multiSelect === true ? 'list' : 'radios', q.multiSelect === true)(draft, q, path, name)
}

export const FIELD_MAKERS: Record<string, Maker> = {
  text,
  comment,
  checkbox: choices('list', true),
  radiogroup: choices('radios', false),
  dropdown: choices('select', false),
  tagbox: choices('select', true),
  imagepicker: imagePicker,
  boolean,
  rating,
  file,
  signaturepad: (draft, q, _p, name) => {
    const height = pixels(q.signatureHeight) ?? pixels(q.height)
    return [draft.field(name, 'signature', height === undefined ? {} : { height })]
  },
  html: (draft, q, _p, name) => [draft.element(name, 'html', { html: pickText(q.html) })],
  image,
  expression,
}
