/** level: a rating of 5 stars by default; -1 is unset (spec 000 §3). */
import * as Type from '../schema/type.js'
import { Translatable } from '../schema/translatable.js'
import { defineFieldType } from '../registry.js'
import { contractText } from '../messages.js'
import { passesRequired } from '../rules/index.js'
import { LEVEL_HEIGHT, LEVEL_STARS } from '../constants.js'

export const LevelShape = Type.Object(
  {
    label: Translatable({ default: '' }),
    symbol: Type.String({ default: '★' }),
    color: Type.String({ default: '#f5b301' }),
  },
  { additionalProperties: false }
)

export const levelType = defineFieldType({
  type: 'level',
  data: {
    height: Type.Number({ minimum: 0, default: LEVEL_HEIGHT }),
    levels: Type.Integer({ minimum: 1, maximum: 10, default: LEVEL_STARS }),
    /** One shape per level (label, symbol, colour); missing ones use the default star. */
    body: Type.Object({ shape: Type.Array(LevelShape, { default: [] }) }, { additionalProperties: false, default: {} }),
    /** Fill every level up to the chosen one, not only the chosen one. */
    fill: Type.Boolean({ default: true }),
    withoutcolor: Type.Boolean({ default: false }),
  },
  value: Type.Integer({ minimum: -1 }),
  defaultValue: () => -1,
  stored: (item, value) => {
    if (value < 0) return { value_replace: '', value_simple: '-1' }
    const label = item.data.body.shape[value - 1]?.label
    return { value_replace: label || `${value}/${item.data.levels}`, value_simple: String(value) }
  },
  required: (_item, value) => passesRequired('level', value),
  validate: (item, value, ctx) =>
    value > item.data.levels ? [contractText(ctx, 'errors.level', { max: item.data.levels })] : [],
})
