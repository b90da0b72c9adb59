/**
 * Pure helpers of the choice renderers (select, list, radios, checkbox): the options drawn, their
 * order, the chosen ids. No DOM and no React here, so runtime-web/tests runs them in Node.
 */
export type OptionId = string | number

/** A choice option as select, list and radios draw it (the contract's ChoiceOption). */
export interface ChoiceOption {
  id: OptionId
  label: string
  bgcolor: string
  txcolor: string
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The options to draw: a set_options effect may hand over options objects, bare ids or labels
 * (['a', 'b']) or {value, text} pairs; anything else is dropped. Ids seen twice keep the first.
 */
export function normalizeOptions(raw: unknown): ChoiceOption[] {
  if (!Array.isArray(raw)) return []
  const out: ChoiceOption[] = []
  const seen = new Set<string>()
  for (const entry of raw) {
    let option: ChoiceOption | null = null
    if (typeof entry === 'string' || typeof entry === 'number') {
      option = { id: entry, label: String(entry), bgcolor: '', txcolor: '' }
    } else if (isObject(entry)) {
      const id = entry.id ?? entry.value
      if (typeof id === 'string' || typeof id === 'number') {
        const label = entry.label ?? entry.text ?? entry.name ?? id
        option = {
          id,
          label: String(label),
          bgcolor: typeof entry.bgcolor === 'string' ? entry.bgcolor : '',
          txcolor: typeof entry.txcolor === 'string' ? entry.txcolor : '',
        }
      }
    }
    if (option && !seen.has(String(option.id))) {
      seen.add(String(option.id))
      out.push(option)
    }
  }
  return out
}

export interface OrderSettings {
  order_random?: boolean
  order?: boolean
  asc?: boolean
}

/** A 32-bit FNV-1a hash of text mixed with a seed: a stable pseudo-random key per option. */
function hashKey(text: string, seed: number): number {
  let hash = (2166136261 ^ Math.floor(seed * 0xffffffff)) >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 16777619) >>> 0
  }
  return hash
}

/**
 * The order options are drawn in: shuffled when order_random (the seed is drawn once per mount, so
 * the order holds while the user answers and survives new options), sorted by label when order
 * (ascending unless asc is false), else the designer's order.
 */
export function orderOptions(
  options: readonly ChoiceOption[],
  settings: OrderSettings,
  seed: number,
  locale = 'es'
): ChoiceOption[] {
  const list = [...options]
  if (settings.order_random) {
    return list.sort((a, b) => hashKey(String(a.id), seed) - hashKey(String(b.id), seed))
  }
  if (settings.order) {
    const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true })
    list.sort((a, b) => collator.compare(a.label, b.label))
    if (settings.asc === false) list.reverse()
  }
  return list
}

/** The chosen ids of a select, list or radios value ('' is none, one id, or a list). */
export function selectedIds(value: unknown): OptionId[] {
  if (value === '' || value === null || value === undefined) return []
  if (Array.isArray(value)) return value.filter((v): v is OptionId => typeof v === 'string' || typeof v === 'number')
  return typeof value === 'string' || typeof value === 'number' ? [value] : []
}

export const sameId = (a: OptionId, b: OptionId) => String(a) === String(b)

/** Adds or removes one id of a multiple selection, keeping the rest in order. */
export function toggleId(ids: readonly OptionId[], id: OptionId): OptionId[] {
  return ids.some((x) => sameId(x, id)) ? ids.filter((x) => !sameId(x, id)) : [...ids, id]
}
