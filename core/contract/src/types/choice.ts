/** Choices: select, list, radios (options), radio (one button of a family), checkbox and switch. */
import type { Static } from '@sinclair/typebox'
import * as Type from '../schema/type.js'
import { Translatable } from '../schema/translatable.js'
import { defineFieldType } from '../registry.js'
import { contractText } from '../messages.js'
import { coerceExternalValue, passesRequired } from '../rules/index.js'
import { isBlank } from './shared.js'

export const OptionId = Type.Union([Type.String(), Type.Number()])
export const ChoiceOption = Type.Object(
  {
    id: OptionId,
    label: Translatable(),
    bgcolor: Type.String({ default: '' }),
    txcolor: Type.String({ default: '' }),
  },
  { additionalProperties: false }
)
export type ChoiceOptionConfig = Static<typeof ChoiceOption>

const optionsData = (mode: 'list' | 'dropdown') => ({
  options: Type.Array(ChoiceOption, { default: [{ id: '1', label: 'Opción 1' }] }),
  multiple: Type.Boolean({ default: false }),
  mode: Type.Union([Type.Literal('list'), Type.Literal('dropdown')], { default: mode }),
  order_random: Type.Boolean({ default: false }),
  /** Sort the options by label (asc or desc) instead of keeping the designer's order. */
  order: Type.Boolean({ default: false }),
  asc: Type.Boolean({ default: true }),
  /** Emit the option id instead of the option in events and scripts. */
  return_id: Type.Boolean({ default: true }),
  placeholder: Translatable({ default: '' }),
})

/** A selection: one id, or a list of ids when multiple. */
const Selection = Type.Union([Type.Array(OptionId), OptionId])

const asList = (value: unknown): (string | number)[] =>
  isBlank(value) ? [] : Array.isArray(value) ? value : [value as string | number]

/** Labels of the chosen ids joined by ', ' (unknown ids show as themselves); value_simple is the JSON id list. */
function storedSelection(options: ChoiceOptionConfig[], value: unknown) {
  const ids = asList(value)
  if (ids.length === 0) return { value_replace: '', value_simple: '' }
  const labels = ids.map((id) => options.find((o) => String(o.id) === String(id))?.label ?? String(id))
  return { value_replace: labels.join(', '), value_simple: JSON.stringify(ids) }
}

const optionsType = (type: 'select' | 'list' | 'radios', mode: 'list' | 'dropdown') =>
  defineFieldType({
    type,
    data: optionsData(mode),
    value: Type.Union([Selection, Type.Literal('')]),
    defaultValue: (item) => (item.data.multiple ? [] : ''),
    stored: (item, value) => storedSelection(item.data.options, value),
    required: (_item, value) => passesRequired(type, value),
    validate: (item, value, ctx) =>
      !item.data.multiple && Array.isArray(value) && value.length > 1
        ? [contractText(ctx, 'errors.single_option')]
        : [],
    coerce: (item, text) => coerceExternalValue({ type, data: item.data }, text) as Static<typeof Selection> | '',
  })

export const selectType = optionsType('select', 'dropdown')
export const listType = optionsType('list', 'list')
export const radiosType = optionsType('radios', 'list')

/** Texts stored for true and false (spec: switch options true = YES, false = NO). */
const replacements = Type.Object(
  { true: Translatable({ default: 'YES' }), false: Translatable({ default: 'NO' }) },
  { additionalProperties: false, default: {} }
)

const booleanType = (type: 'checkbox' | 'switch' | 'radio', extra: Record<string, any>) =>
  defineFieldType({
    type,
    data: { options: replacements, ...extra },
    value: Type.Boolean(),
    defaultValue: () => false,
    stored: (item, value) => ({
      value_replace: value ? item.data.options.true : item.data.options.false,
      value_simple: String(value),
    }),
    required: (_item, value) => passesRequired(type, value),
    coerce: (item, text) => coerceExternalValue({ type: item.type }, text) === true,
  })

export const checkboxType = booleanType('checkbox', {})
export const switchType = booleanType('switch', {
  position: Type.Union([Type.Literal('left'), Type.Literal('right')], { default: 'left' }),
})
/** A single radio button; buttons sharing a `family` exclude each other. Required always passes. */
export const radioType = booleanType('radio', { family: Type.String({ default: '' }) })
