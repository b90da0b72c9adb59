/** Form.io option lists ({label, value} entries of radios, select boxes and selects). */
import { pickText } from './source-text.js'
import { isObject, listOf } from './types.js'

/** {label, value} entries as options; a missing value uses the label. */
export function formioOptions(values: unknown): { id: string | number; label: string }[] {
  return listOf(values)
    .filter(isObject)
    .map((v) => {
      const label = pickText(v.label)
      const id = typeof v.value === 'string' || typeof v.value === 'number' ? v.value : label
      return { id, label }
    })
}
