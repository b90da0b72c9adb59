/** Text-like fields: text, textarea, email, celular and the product's own case reference. */
import * as Type from '../schema/type.js'
import { defineFieldType, type ValueContext } from '../registry.js'
import { ruleMessage } from '../rule-messages.js'
import { checkText, isEmail, passesRequired, textMinLength } from '../rules/index.js'
import { PHONE_COUNTRY } from '../constants.js'
import { OrBlank } from './shared.js'

/** ref.min_length of the typed texts: the fewest characters a non-empty value may have (0: none). */
const TEXT_REF = { min_length: Type.Integer({ minimum: 0, default: 0 }) }

/** The rules of a typed text whose message a designer may word. */
const TEXT_MESSAGES = ['pattern', 'min_length', 'max_length'] as const

interface TextItem {
  data: {
    ref: { limit: number; mask: string; pattern: string; min_length: number }
    validate: { messages?: Record<string, unknown> }
  }
}

/**
 * Problems of a text value under ref.limit, ref.mask, ref.pattern and ref.min_length (spec 000 §5
 * "Text"), each in the designer's words when given.
 */
function textProblems(item: TextItem, value: string, ctx: ValueContext): string[] {
  if (value === '') return []
  const { ref } = item.data
  const checked = checkText(value, { ...ref, minLength: ref.min_length })
  if (checked.message === 'info_invalida') return [ruleMessage(item, 'pattern', ctx, 'errors.info_invalida')]
  if (checked.message === 'min_length') {
    return [
      ruleMessage(item, 'min_length', ctx, 'errors.text_min', { min: textMinLength({ minLength: ref.min_length }) }),
    ]
  }
  if (checked.limit !== null && [...value].length > checked.limit) {
    return [ruleMessage(item, 'max_length', ctx, 'errors.text_limit', { limit: checked.limit })]
  }
  return []
}

export const textType = defineFieldType({
  type: 'text',
  data: {
    /** Suggestions offered while typing (entries containing the text, case-insensitive). */
    autocomplete: Type.Array(Type.String(), { default: [] }),
    password: Type.Boolean({ default: false }),
  },
  ref: TEXT_REF,
  messages: TEXT_MESSAGES,
  value: Type.String(),
  required: (_item, value) => passesRequired('text', value),
  validate: (item, value, ctx) => textProblems(item, value, ctx),
})

export const textareaType = defineFieldType({
  type: 'textarea',
  data: { rows: Type.Integer({ minimum: 1, default: 4 }) },
  ref: TEXT_REF,
  messages: TEXT_MESSAGES,
  value: Type.String(),
  required: (_item, value) => passesRequired('textarea', value),
  validate: (item, value, ctx) => textProblems(item, value, ctx),
})

/** A text with the standard e-mail address pattern. */
export const emailType = defineFieldType({
  type: 'email',
  ref: TEXT_REF,
  messages: [...TEXT_MESSAGES, 'email'],
  value: Type.String(),
  required: (_item, value) => passesRequired('email', value),
  validate: (item, value, ctx) => {
    if (value === '') return []
    return isEmail(value) ? textProblems(item, value, ctx) : [ruleMessage(item, 'email', ctx, 'errors.email')]
  },
})

/** value {code (country, CO by default), value (the number), string (as shown, with the prefix)}. */
export const CelularValue = Type.Object(
  { code: Type.String(), value: Type.String(), string: Type.String() },
  { additionalProperties: false }
)

export const celularType = defineFieldType({
  type: 'celular',
  data: { code: Type.String({ minLength: 2, maxLength: 2, default: PHONE_COUNTRY }) },
  value: OrBlank(CelularValue),
  defaultValue: (item) => ({ code: item.data.code, value: '', string: '' }),
  stored: (_item, value) =>
    value === '' || value.string === ''
      ? { value_replace: '', value_simple: '' }
      : { value_replace: value.string, value_simple: JSON.stringify(value) },
  required: (_item, value) => passesRequired('celular', value),
  coerce: (item, text) => ({ code: item.data.code, value: text.replace(/\s+/g, ''), string: text.trim() }),
})

/**
 * `tramita`: the product's own field type ({product} in the spec), a reference to another Tramita
 * case by its code. Required means non-empty.
 */
export const tramitaType = defineFieldType({
  type: 'tramita',
  value: Type.String(),
  required: (_item, value) => passesRequired('tramita', value),
})
