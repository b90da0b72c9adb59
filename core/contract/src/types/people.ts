/**
 * users, areas, roles and machines selectors (spec 000 §3). The value holds the chosen options as the
 * server listed them, so the display text needs no lookup; value_simple is the JSON list of their ids.
 */
import type { TSchema } from '@sinclair/typebox'
import * as Type from '../schema/type.js'
import { defineFieldType } from '../registry.js'
import { contractText } from '../messages.js'
import { passesRequired } from '../rules/index.js'
import { serialise } from './shared.js'

const Id = Type.Union([Type.String(), Type.Number()])

export const UserOption = Type.Object(
  {
    code: Id,
    label: Type.String(),
    photo: Type.Optional(Type.String()),
    allData: Type.Optional(
      Type.Object({ areas: Type.Array(Id), rol_user: Type.Array(Id) }, { additionalProperties: true })
    ),
  },
  { additionalProperties: false }
)
export const AreaOption = Type.Object(
  { id: Id, name: Type.String(), color: Type.Optional(Type.String()) },
  { additionalProperties: false }
)
export const RoleOption = Type.Object({ id: Id, name: Type.String() }, { additionalProperties: false })
export const MachineOption = Type.Object(
  {
    token: Type.String(),
    ubication: Type.String(),
    model: Type.String(),
    ip: Type.String(),
    trays: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
  },
  { additionalProperties: false }
)

const selectorData = {
  multiple: Type.Boolean({ default: false }),
  /** Restrict the options to these users, or to users of these areas and roles; empty lists allow all. */
  reduce: Type.Object(
    {
      areas: Type.Array(Id, { default: [] }),
      roles: Type.Array(Id, { default: [] }),
      users: Type.Array(Id, { default: [] }),
    },
    { additionalProperties: false, default: {} }
  ),
}

function selector<T extends TSchema>(
  type: 'users' | 'areas' | 'roles' | 'machines',
  option: T,
  idOf: (o: any) => unknown,
  labelOf: (o: any) => string
) {
  return defineFieldType({
    type,
    data: selectorData,
    /** Which option attribute the selector shows and searches. */
    ref: { selector: Type.String({ default: 'label' }) },
    value: Type.Array(option),
    defaultValue: () => [],
    stored: (_item, value: any[]) => ({
      value_replace: value.map(labelOf).join(', '),
      value_simple: serialise(value.map(idOf)),
    }),
    required: (_item, value) => passesRequired(type, value),
    validate: (item, value: any[], ctx) =>
      !item.data.multiple && value.length > 1 ? [contractText(ctx, 'errors.single_option')] : [],
  })
}

export const usersType = selector(
  'users',
  UserOption,
  (o) => o.code,
  (o) => o.label
)
export const areasType = selector(
  'areas',
  AreaOption,
  (o) => o.id,
  (o) => o.name
)
export const rolesType = selector(
  'roles',
  RoleOption,
  (o) => o.id,
  (o) => o.name
)
export const machinesType = selector(
  'machines',
  MachineOption,
  (o) => o.token,
  (o) => `${o.model} (${o.ubication})`
)
