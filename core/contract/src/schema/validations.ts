/** Autocomplete rules and action definitions (spec 000 §3, 001 §3 and §4). */
import * as Type from './type.js'
import { Script } from './common.js'

export const AUTOCOMPLETE_ACTIONS = ['now', 'value', 'autocomplete', 'set_user'] as const
export const AUTOCOMPLETE_ORIGINS = [
  'databases',
  'indexing',
  'process',
  'users',
  'formula',
  'javascript',
  'python',
] as const

export const AutocompleteRule = Type.Object(
  {
    id_field: Type.String({ minLength: 1 }),
    action: Type.Union(AUTOCOMPLETE_ACTIONS.map((a) => Type.Literal(a))),
    origin: Type.Union(AUTOCOMPLETE_ORIGINS.map((o) => Type.Literal(o))),
    type: Type.String({ default: '' }),
    refers: Type.String({ default: '' }),
    query: Type.Object(
      {
        condition: Script,
        id_db: Type.Optional(Type.Union([Type.String(), Type.Number()])),
        id_ind: Type.Optional(Type.Union([Type.String(), Type.Number()])),
        id_sub: Type.Optional(Type.Union([Type.String(), Type.Number()])),
        id: Type.Optional(Type.Union([Type.String(), Type.Number()])),
        get_columns: Type.Array(Type.String(), { default: [] }),
        limit: Type.Integer({ default: 10 }),
        order: Type.String({ default: '' }),
        pattern: Type.String({ default: '' }),
      },
      { additionalProperties: false, default: {} }
    ),
  },
  { additionalProperties: false }
)

export const ActionStep = Type.Object(
  { type: Type.String({ minLength: 1 }), config: Type.Record(Type.String(), Type.Unknown(), { default: {} }) },
  { additionalProperties: false }
)

/** Runs only when its condition script is true (an error counts as false); onevent actions run at init. */
export const ActionDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    onevent: Type.Boolean({ default: false }),
    conditions: Type.Object(
      { active: Type.Boolean({ default: false }), code: Script },
      { additionalProperties: false, default: {} }
    ),
    start_page: Type.Object(
      {
        active: Type.Boolean({ default: false }),
        page: Type.Union([Type.Integer({ minimum: 0 }), Type.String()], { default: 0 }),
      },
      { additionalProperties: false, default: {} }
    ),
    actions: Type.Array(ActionStep, { default: [] }),
  },
  { additionalProperties: false }
)

export const Validations = Type.Object(
  {
    autocomplete: Type.Array(AutocompleteRule, { default: [] }),
    actions: Type.Array(ActionDefinition, { default: [] }),
  },
  { additionalProperties: false, default: {} }
)
