/**
 * The keys every field and element of a jsonconfig shares (spec 000 §3 "Field or element").
 * Defaults are schema annotations: `withDefaults` reads them, so each default is written once.
 * Keys with a default are required in the resolved config; a designer may omit them.
 */
import type { TProperties, TSchema } from '@sinclair/typebox'
import * as Type from './type.js'
import { Translatable, Translations } from './translatable.js'
import { DEFAULT_SPACE, FIELD_RADIUS, FONT_SIZE, FULL_WIDTH, GRID_COLUMNS, INPUT_HEIGHT } from '../constants.js'

/** A user script (condition, formula or event handler) run in the sandbox; '' means none. */
export const Script = Type.String({ default: '', description: 'JavaScript run in the sandbox' })

export const EVENT_SCRIPTS = [
  'on_change',
  'on_load',
  'on_click',
  'on_double_click',
  'on_focus',
  'on_blur',
  'on_context_menu',
  'on_key_down',
  'on_mouse_enter',
  'on_mouse_leave',
] as const
export type EventName = (typeof EVENT_SCRIPTS)[number]

/** One property per event, typed (Object.fromEntries would lose the keys). */
function perEvent<T extends TSchema>(make: () => T): { [K in EventName]: T } {
  return Object.fromEntries(EVENT_SCRIPTS.map((name) => [name, make()])) as { [K in EventName]: T }
}

export const NaturalState = Type.Union([Type.Literal('enabled'), Type.Literal('disabled'), Type.Literal('readonly')], {
  default: 'enabled',
})

/** show: visible when filling; natural: entry state; see: shown in the read-only views (see, approve). */
export const State = Type.Object(
  { show: Type.Boolean({ default: true }), natural: NaturalState, see: Type.Boolean({ default: true }) },
  { additionalProperties: false, default: {} }
)

export const Label = Type.Object(
  {
    value: Translatable({ default: '' }),
    description: Translatable({ default: '' }),
    subtitle: Translatable({ default: '' }),
  },
  { additionalProperties: false, default: {} }
)

/** ref.limit: -1 (or any negative) is no limit. A mask removes the limit. pattern is a RegExp source. */
export const RefProps = {
  value: Type.Optional(Type.Unknown()),
  placeholder: Translatable({ default: '' }),
  tooltip: Translatable({ default: '' }),
  limit: Type.Number({ default: -1 }),
  mask: Type.String({ default: '' }),
  pattern: Type.String({ default: '' }),
} satisfies TProperties

/**
 * The rules whose message a designer may word instead of the product's (data.validate.messages):
 * required for every field, the others for the types that check them (a type lists its own).
 */
export const RULE_MESSAGES = ['required', 'pattern', 'min_length', 'max_length', 'email', 'min', 'max'] as const
export type RuleMessage = (typeof RULE_MESSAGES)[number]

/**
 * data.validate of a type: required and, for a field, `messages` with one text per rule named ('' keeps
 * the product's message). Messages are translatable, so a reader sees them in the form's language.
 */
export function validateSchema(messages: readonly RuleMessage[]) {
  const texts = Object.fromEntries(messages.map((rule) => [rule, Translatable({ default: '' })]))
  return Type.Object(
    {
      required: Type.Boolean({ default: false }),
      ...(messages.length > 0 ? { messages: Type.Object(texts, { additionalProperties: false, default: {} }) } : {}),
    },
    { additionalProperties: false, default: {} }
  )
}

/** What every item's data.validate holds at least (elements have no messages; fields word required). */
export const Validate = Type.Object(
  {
    required: Type.Boolean({ default: false }),
    messages: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false, default: {} }
)

const Columns = (description: string) =>
  Type.Integer({ minimum: 1, maximum: GRID_COLUMNS, default: GRID_COLUMNS, description })

/** Presentation per device: grid columns each (12 by default), paddings, border, radius and colours. */
export const Design = Type.Object(
  {
    responsive: Type.Object(
      {
        mobile: Columns('columns on a phone'),
        tablet: Columns('columns on a tablet'),
        computer: Columns('columns on a computer'),
      },
      { additionalProperties: false, default: {} }
    ),
    paddings: Type.Object(
      {
        top: Type.Number({ default: 0 }),
        right: Type.Number({ default: 0 }),
        bottom: Type.Number({ default: 0 }),
        left: Type.Number({ default: 0 }),
      },
      { additionalProperties: false, default: {} }
    ),
    border: Type.Object(
      {
        width: Type.Number({ minimum: 0, default: 1 }),
        style: Type.Union(
          [Type.Literal('solid'), Type.Literal('dashed'), Type.Literal('dotted'), Type.Literal('none')],
          {
            default: 'solid',
          }
        ),
        color: Type.String({ default: '#cccccc' }),
      },
      { additionalProperties: false, default: {} }
    ),
    radius: Type.Number({ minimum: 0, default: FIELD_RADIUS }),
    font_size: Type.Number({ minimum: 1, default: FONT_SIZE }),
    colors: Type.Object(
      {
        background: Type.String({ default: '' }),
        text: Type.String({ default: '' }),
        label: Type.String({ default: '' }),
      },
      { additionalProperties: false, default: {} }
    ),
  },
  { additionalProperties: false, default: {} }
)

/** The `data` keys of every field and element; type definitions add theirs beside these. */
export const CommonDataProps = {
  show_with_formule: Script,
  formule: Script,
  ...perEvent(() => Script),
  label: Label,
  ref: Type.Object(RefProps, { additionalProperties: false, default: {} }),
  validate: Validate,
  width: Type.Integer({ minimum: -1, maximum: GRID_COLUMNS, default: FULL_WIDTH, description: '-1 is the full row' }),
  height: Type.Number({ minimum: 0, default: INPUT_HEIGHT }),
  space: Type.Number({ minimum: 0, default: DEFAULT_SPACE }),
  design: Design,
} satisfies TProperties

/** Names are identifiers scripts can read; `value('name')` reads any other. */
export const FIELD_NAME_PATTERN = '^[A-Za-z_$][A-Za-z0-9_$]*$'

/**
 * JavaScript's reserved words (and eval, arguments, undefined): a field so named cannot be read by
 * bare name. Marked pure so bundles that never use it (the form route) leave it out.
 */
export const RESERVED_WORDS: readonly string[] = /* @__PURE__ */ (
  'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
  'yield let static implements interface package private protected public await arguments eval undefined'
).split(' ')

/** The top-level keys of every field and element. `type` and `data` are refined per type. */
export const CommonFieldProps = {
  field_name: Type.String({ minLength: 1, maxLength: 120, pattern: FIELD_NAME_PATTERN }),
  component: Type.String({ default: '' }),
  base: Type.String({ default: '' }),
  /** A set repeats this field over the value of the field named by `set` (idset names the repeated id). */
  isSet: Type.Boolean({ default: false }),
  set: Type.String({ default: '' }),
  idset: Type.String({ default: '' }),
  no_display: Type.Boolean({ default: false }),
  /** Process steps that show this field; empty shows it on every step. */
  show_on_task: Type.Array(Type.String(), { default: [] }),
  saveable: Type.Boolean({ default: true }),
  /** Named actions (validations.actions) run on each event. */
  events: Type.Object(
    perEvent(() => Type.Optional(Type.Array(Type.String()))),
    { additionalProperties: false, default: {} }
  ),
  state: State,
  /** The item's texts in other languages (translations.ts). */
  translations: Translations,
} satisfies TProperties
