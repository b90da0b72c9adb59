/**
 * Values set on a field from outside the user's typing (spec 000 §5 "Externally set values"):
 * the form URL's `values`, autocomplete rules and scripts all hand over text that must become the
 * field's typed value.
 */

export type ExternalOptionId = string | number

export interface ExternalOption {
  id: ExternalOptionId
  label: string
}

/** The little of a field that coercion needs; the full field schema lives elsewhere in the contract. */
export interface CoercibleField {
  type: string
  data?: { options?: readonly ExternalOption[] | null; multiple?: boolean | null } | null
}

export type ExternalValue = string | number | boolean | ExternalOptionId[]

const NUMBER_TYPES = new Set(['number', 'money'])
const CHOICE_TYPES = new Set(['select', 'list', 'radios'])
const BOOLEAN_TYPES = new Set(['checkbox', 'switch', 'radio'])

/**
 * Number rule for external text (spec 000 §5): keep only digits, dots, commas and minus signs, read a
 * comma as the decimal point, then parse; anything that is not then a number gives ''.
 * Everything else is dropped, so exponent notation ('1e5') loses its 'e' by design of the rule.
 */
export function coerceExternalNumber(text: string): number | '' {
  const kept = text.replace(/[^0-9.,-]/g, '').replace(/,/g, '.')
  if (!/[0-9]/.test(kept)) return ''
  const n = Number(kept)
  return Number.isFinite(n) ? n : ''
}

/**
 * Finds the option a piece of text names (spec 000 §5): an option whose id, written as text, equals it,
 * else the first option whose label contains it ignoring case. Blank text names no option.
 */
export function matchOption(text: string, options: readonly ExternalOption[]): ExternalOption | undefined {
  const key = text.trim()
  if (key === '') return undefined
  const byId = options.find((option) => String(option.id).trim() === key)
  if (byId) return byId
  const needle = key.toLowerCase()
  return options.find((option) =>
    String(option.label ?? '')
      .toLowerCase()
      .includes(needle)
  )
}

/**
 * Select, list and radios rule for external text (spec 000 §5): a single field gets the id of the
 * matching option ('' when none); a multiple field reads comma-separated text and gets the ids it
 * matches, once each, in the order named.
 */
export function coerceExternalChoice(
  text: string,
  options: readonly ExternalOption[],
  multiple: boolean
): ExternalOptionId | ExternalOptionId[] {
  if (!multiple) return matchOption(text, options)?.id ?? ''
  const ids: ExternalOptionId[] = []
  for (const part of text.split(',')) {
    const option = matchOption(part, options)
    if (option && !ids.includes(option.id)) ids.push(option.id)
  }
  return ids
}

/**
 * Checkbox, switch and radio rule for external text (spec 000 §5: "true only if the text is true").
 * Read as the word true after trimming, in any case ('TRUE', ' true '); anything else is false.
 */
export function coerceExternalBoolean(text: string): boolean {
  return text.trim().toLowerCase() === 'true'
}

/**
 * Turns text set from outside into a field's value (spec 000 §5 "Externally set values"): number and
 * money via {@link coerceExternalNumber}, select/list/radios via {@link coerceExternalChoice},
 * checkbox/switch/radio via {@link coerceExternalBoolean}; any other type keeps the text unchanged.
 * Non-string input (a number or boolean inside the URL's JSON) is read as its text first.
 */
export function coerceExternalValue(field: CoercibleField, text: string): ExternalValue {
  const type = field.type
  const asText = typeof text === 'string' ? text : String(text ?? '')
  if (NUMBER_TYPES.has(type)) return coerceExternalNumber(asText)
  if (CHOICE_TYPES.has(type)) {
    return coerceExternalChoice(asText, field.data?.options ?? [], field.data?.multiple === true)
  }
  if (BOOLEAN_TYPES.has(type)) return coerceExternalBoolean(asText)
  return text
}
