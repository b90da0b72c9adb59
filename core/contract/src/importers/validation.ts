/**
 * Validation extras of both importers (issue 24): minimum lengths, patterns and the messages of the
 * rules (data.validate.messages), each message in every language the source gives it.
 * Form.io: validate.minLength, validate.customMessage (every rule), validate.patternMessage,
 * errors.{required, pattern, minLength, maxLength, min, max, invalid_email}, and the form's `i18n`
 * (language → text → translation, as Form.io's i18n option). SurveyJS: requiredErrorText and the
 * validators' `text`, plain or as a locale map.
 */
import { REPEAT_TYPE } from '../types/repeat.js'
import { LANGUAGES } from '@tramita/i18n'
import { coreRegistry } from '../core-types.js'
import type { RuleMessage } from '../schema/common.js'
import type { FormDraft } from './draft.js'
import { at, keepTranslations, pickText } from './source-text.js'
import { isMeaningful, isObject, part, positive, type DraftItem, type Json } from './types.js'

/** The types with a minimum length (ref.min_length). */
export const MIN_LENGTH_TYPES: readonly string[] = ['text', 'textarea', 'email']

/** The rules whose message an item's type lets a designer word: its schema's validate.messages. */
function wordable(type: string): Set<string> {
  const schema = coreRegistry().get('field', type)?.schema as Json | undefined
  const messages = at(schema, 'properties.data.properties.validate.properties.messages.properties')
  return new Set(isObject(messages) ? Object.keys(messages) : [])
}

/** Sets the item's message for `rule` and its texts in other languages (language → text). */
function setMessage(item: DraftItem, rule: RuleMessage, text: string, others: Record<string, string> = {}): void {
  part(part(item.data, 'validate'), 'messages')[rule] = text
  for (const [language, other] of Object.entries(others)) {
    if (other === '' || other === text) continue
    ;((item.translations ??= {})[language] ??= {})[`validate.messages.${rule}`] = other
  }
}

/** A SurveyJS text (a string or a locale map {default, es, en, ...}) as the item's message for `rule`. */
export function keepSurveyMessage(item: DraftItem, rule: RuleMessage, source: unknown, locale?: string): boolean {
  const shown = pickText(source)
  if (shown.trim() === '' || !wordable(item.type).has(rule)) return false
  setMessage(item, rule, shown)
  keepTranslations(item, `validate.messages.${rule}`, source, shown, locale)
  return true
}

/** SurveyJS requiredErrorText: kept on the required fields a question became, reported otherwise. */
export function surveyRequiredMessage(draft: FormDraft, items: DraftItem[], q: Json, path: string): void {
  if (!isMeaningful(q.requiredErrorText)) return
  const required = items.filter((item) => isObject(item.data.validate) && item.data.validate.required === true)
  let kept = false
  for (const item of required)
    kept = keepSurveyMessage(item, 'required', q.requiredErrorText, draft.sourceLocale) || kept
  if (!kept) draft.skip(`${path}/requiredErrorText`, 'only the message of a required field is kept')
}

/**
 * A SurveyJS regex as a whole-value pattern. SurveyJS tests it anywhere in the value (RegExp.test);
 * a pattern here must match the whole value, so an unanchored one is wrapped to allow text around it.
 */
export function surveyPattern(regex: string): string {
  const anchored = regex.startsWith('^') && /(^|[^\\])\$$/.test(regex)
  return anchored ? regex : `[\\s\\S]*(?:${regex})[\\s\\S]*`
}

// ---- Form.io ----

/** Form.io's error keys (component `errors`) per rule of ours. */
const FORMIO_ERRORS: readonly [RuleMessage, string][] = [
  ['required', 'required'],
  ['pattern', 'pattern'],
  ['min_length', 'minLength'],
  ['max_length', 'maxLength'],
  ['email', 'invalid_email'],
  ['min', 'min'],
  ['max', 'max'],
]

/** Per language, the form's translations of Form.io texts (its `i18n`, keyed by the text itself). */
const formioTexts = new WeakMap<FormDraft, Record<string, Record<string, string>>>()

/** Keeps a Form.io form's `i18n` map for the messages: language code (es, en, zh-CN...) → text → translation. */
export function useFormioI18n(draft: FormDraft, i18n: unknown): void {
  if (!isObject(i18n)) return
  const byLanguage: Record<string, Record<string, string>> = {}
  for (const [code, texts] of Object.entries(i18n)) {
    const language = code.slice(0, 2).toLowerCase()
    if (!(LANGUAGES as readonly string[]).includes(language) || !isObject(texts)) continue
    for (const [text, translation] of Object.entries(texts)) {
      if (typeof translation === 'string') (byLanguage[language] ??= {})[text] = translation
    }
  }
  formioTexts.set(draft, byLanguage)
}

/** The rules in force on an item as its maker built it (a message for another rule would never show). */
function rulesInForce(item: DraftItem): Set<RuleMessage> {
  const rules = new Set<RuleMessage>()
  const validate = isObject(item.data.validate) ? item.data.validate : {}
  const ref = isObject(item.data.ref) ? item.data.ref : {}
  const limit = isObject(item.data.limit) ? item.data.limit : {}
  if (validate.required === true) rules.add('required')
  if (typeof ref.pattern === 'string' && ref.pattern !== '') rules.add('pattern')
  if (typeof ref.min_length === 'number' && ref.min_length > 0) rules.add('min_length')
  if (typeof ref.limit === 'number' && ref.limit > 0) rules.add('max_length')
  if (item.type === 'email') rules.add('email')
  if (typeof limit.min === 'number') rules.add('min')
  if (typeof limit.max === 'number') rules.add('max')
  const allowed = wordable(item.type)
  return new Set([...rules].filter((rule) => allowed.has(rule)))
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g
const HAS_PLACEHOLDER = /\{\{\s*[\w.]+\s*\}\}/

/** A Form.io message with its {{ field }}, {{ length }}, {{ min }}, {{ max }} and {{ pattern }} filled in. */
function fill(text: string, vars: Record<string, unknown>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    vars[name] === undefined || vars[name] === '' ? whole : String(vars[name])
  )
}

/**
 * Form.io's validation extras of a field built from component `c`: the minimum length, then the
 * message of each rule in force (customMessage words them all, patternMessage the pattern, `errors`
 * each one), in the languages the form's i18n gives. What has no place is reported.
 */
export function formioValidation(draft: FormDraft, item: DraftItem, c: Json, path: string): void {
  const minLength = positive(at(c, 'validate.minLength'))
  // A grid's minLength is its minimum number of rows (formio-grid.ts).
  if (minLength !== undefined && item.type !== REPEAT_TYPE) {
    if (MIN_LENGTH_TYPES.includes(item.type)) part(item.data, 'ref').min_length = Math.ceil(minLength)
    else draft.skip(`${path}/validate/minLength`, 'a minimum length is kept for text, textarea and e-mail fields only')
  }
  const rules = rulesInForce(item)
  const custom = at(c, 'validate.customMessage')
  const patternMessage = at(c, 'validate.patternMessage')
  const errors = isObject(c.errors) ? c.errors : {}
  const ref = isObject(item.data.ref) ? item.data.ref : {}
  const limit = isObject(item.data.limit) ? item.data.limit : {}
  const label = isObject(item.data.label) && typeof item.data.label.value === 'string' ? item.data.label.value : ''
  const vars: Partial<Record<RuleMessage, Record<string, unknown>>> = {
    pattern: { pattern: ref.pattern, regex: ref.pattern },
    min_length: { length: ref.min_length, minLength: ref.min_length },
    max_length: { length: ref.limit, maxLength: ref.limit },
    min: { min: limit.min },
    max: { max: limit.max },
  }
  const texts = formioTexts.get(draft) ?? {}
  const word = (rule: RuleMessage, raw: string, where: string) => {
    const inLanguage = (language: string | null) => {
      const template = language === null ? raw : texts[language]?.[raw]
      if (template === undefined) return ''
      const field = (language && item.translations?.[language]?.['label.value']) || label
      return fill(template, { field, ...vars[rule] })
    }
    const own = inLanguage(null)
    const others = Object.fromEntries(LANGUAGES.map((language) => [language, inLanguage(language)]))
    setMessage(item, rule, own, others)
    if (HAS_PLACEHOLDER.test(own)) {
      draft.skip(where, 'placeholders other than field, length, min, max and pattern stay as written')
    }
  }
  const given = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

  for (const [rule, key] of FORMIO_ERRORS) {
    if (!rules.has(rule)) continue
    // Form.io's order: customMessage replaces every message, patternMessage the pattern's, then `errors`.
    if (given(custom)) word(rule, custom, `${path}/validate/customMessage`)
    else if (rule === 'pattern' && given(patternMessage)) word(rule, patternMessage, `${path}/validate/patternMessage`)
    else if (given(errors[key])) word(rule, errors[key], `${path}/errors/${key}`)
  }
  if (given(custom) && rules.size === 0) {
    draft.skip(`${path}/validate/customMessage`, 'the field has no rule here whose message it would be')
  }
  if (given(patternMessage) && !rules.has('pattern')) {
    draft.skip(`${path}/validate/patternMessage`, 'the field has no pattern here')
  }
  for (const [key, text] of Object.entries(errors)) {
    if (!given(text)) continue
    const rule = FORMIO_ERRORS.find(([, name]) => name === key)?.[0]
    if (rule === undefined) draft.skip(`${path}/errors/${key}`, `no "${key}" rule here`)
    else if (!rules.has(rule)) draft.skip(`${path}/errors/${key}`, `the field has no ${rule} rule here`)
    else if (given(custom) || (rule === 'pattern' && given(patternMessage))) {
      draft.skip(`${path}/errors/${key}`, 'Form.io shows the custom message instead')
    }
  }
}
