/** number and money (spec 000 §3, §5 "Number"). Money is a number with the money settings on. */
import * as Type from '../schema/type.js'
import { defineFieldType, type ItemOf, type ValueContext } from '../registry.js'
import { contractText } from '../messages.js'
import { ruleMessage } from '../rule-messages.js'
import { coerceExternalValue, numberBounds, passesRequired } from '../rules/index.js'
import { DECIMALS_SIGNIFICANT, MONEY_DEFAULTS } from '../constants.js'
import { OrBlank } from './shared.js'

const numberData = (money: boolean) => ({
  /** min and max; a negative bound means no bound. */
  limit: Type.Object(
    { min: Type.Number({ default: -1 }), max: Type.Number({ default: -1 }) },
    { additionalProperties: false, default: {} }
  ),
  /** Show +/- steppers; selector_only hides the typed input. */
  selector: Type.Boolean({ default: false }),
  selector_only: Type.Boolean({ default: false }),
  decimals: Type.Object(
    {
      enabled: Type.Boolean({ default: false }),
      significant: Type.Integer({ minimum: 0, default: DECIMALS_SIGNIFICANT }),
    },
    { additionalProperties: false, default: {} }
  ),
  money: Type.Object(
    {
      enabled: Type.Boolean({ default: money }),
      locate: Type.String({ default: MONEY_DEFAULTS.locate }),
      currency: Type.String({ minLength: 3, maxLength: 3, default: MONEY_DEFAULTS.currency }),
      type_display: Type.Union(
        [Type.Literal('symbol'), Type.Literal('narrowSymbol'), Type.Literal('code'), Type.Literal('name')],
        { default: MONEY_DEFAULTS.type_display }
      ),
      useGrouping: Type.Boolean({ default: true }),
      accountingSign: Type.Boolean({ default: false }),
    },
    { additionalProperties: false, default: {} }
  ),
})

type NumberItem = ItemOf<ReturnType<typeof numberData>>

/** Money through Intl for the field's locale and currency; digits follow the decimals setting. */
export function formatMoney(item: NumberItem, value: number): string {
  const { money, decimals } = item.data
  const digits = decimals.enabled ? decimals.significant : 0
  try {
    return new Intl.NumberFormat(money.locate, {
      style: 'currency',
      currency: money.currency,
      currencyDisplay: money.type_display,
      useGrouping: money.useGrouping,
      currencySign: money.accountingSign ? 'accounting' : 'standard',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value)
  } catch {
    // An unknown locale or currency code still shows the number.
    return String(value)
  }
}

function numberProblems(item: NumberItem, value: number, ctx: ValueContext): string[] {
  const problems: string[] = []
  const { min, max } = numberBounds(item.data.limit)
  if (min !== null && value < min) problems.push(ruleMessage(item, 'min', ctx, 'errors.number_min', { min }))
  if (max !== null && value > max) problems.push(ruleMessage(item, 'max', ctx, 'errors.number_max', { max }))
  const allowed = item.data.decimals.enabled ? item.data.decimals.significant : 0
  const fraction = String(value).split('.')[1] ?? ''
  if (!String(value).includes('e') && fraction.length > allowed) {
    problems.push(contractText(ctx, 'errors.decimals', { decimals: allowed }))
  }
  return problems
}

const numberLike = (type: 'number' | 'money') =>
  defineFieldType({
    type,
    data: numberData(type === 'money'),
    messages: ['min', 'max'],
    value: OrBlank(Type.Number()),
    stored: (item, value) => {
      if (value === '') return { value_replace: '', value_simple: '' }
      return {
        value_replace: item.data.money.enabled ? formatMoney(item, value) : String(value),
        value_simple: String(value),
      }
    },
    required: (_item, value) => passesRequired(type, value),
    validate: (item, value, ctx) => (value === '' ? [] : numberProblems(item, value, ctx)),
    coerce: (_item, text) => coerceExternalValue({ type }, text) as number | '',
  })

export const numberType = numberLike('number')
export const moneyType = numberLike('money')
