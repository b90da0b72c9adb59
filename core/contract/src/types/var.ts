/** var: a value the form carries without showing it (date, image, json, number, text, time). */
import * as Type from '../schema/type.js'
import { defineFieldType } from '../registry.js'
import { passesRequired } from '../rules/index.js'
import { contractText } from '../messages.js'
import { isBlank } from './shared.js'

export const VAR_TYPES = ['date', 'image', 'json', 'number', 'text', 'time'] as const

export const varType = defineFieldType({
  type: 'var',
  data: {
    var_type: Type.Union(
      VAR_TYPES.map((t) => Type.Literal(t)),
      { default: 'text' }
    ),
  },
  value: Type.Unknown(),
  defaultValue: (item) => (item.data.var_type === 'json' ? null : ''),
  stored: (_item, value) => {
    if (isBlank(value)) return { value_replace: '', value_simple: '' }
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    return { value_replace: text, value_simple: text }
  },
  required: (_item, value) => passesRequired('var', value),
  validate: (item, value, ctx) => {
    if (isBlank(value)) return []
    const t = item.data.var_type
    const ok =
      t === 'json' ||
      (t === 'number'
        ? typeof value === 'number'
        : t === 'image'
          ? typeof value === 'object'
          : typeof value === 'string')
    return ok ? [] : [contractText(ctx, 'errors.wrong_shape', { field: item.field_name, detail: t })]
  },
})
