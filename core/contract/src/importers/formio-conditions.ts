/**
 * Form.io visibility → show_with_formule. Form.io checks customConditional first, then the simple
 * conditional ({show, when, eq}, or the newer {show, conjunction, conditions}); JSON Logic has no
 * translation. Conditions resolve at the end, when every key has its field name.
 */
import { once, type Condition, type FormDraft } from './draft.js'
import { and, binary, call, literal, method, not, or, type Js } from './js.js'
import { comparable, equalsValue, fieldRef, isEmpty, type FieldRef } from './values.js'
import { translateFormioScript } from './formio-script.js'
import { isMeaningful, isObject, listOf, type DraftItem, type Json } from './types.js'

/** A key of the form; a data path (container.key) falls back to its last part, as containers are flattened. */
export function findKey(draft: FormDraft, key: string): DraftItem | undefined {
  return draft.find(key) ?? (key.includes('.') ? draft.find(key.slice(key.lastIndexOf('.') + 1)) : undefined)
}

/** Form.io compares with the text of `eq`: booleans for checkboxes, numbers as written. */
function valueFor(ref: FieldRef, value: unknown): Js {
  if (ref.kind === 'bool' && (value === 'true' || value === 'false')) return literal(value === 'true')
  if (typeof value === 'number' || typeof value === 'boolean') return literal(value)
  return literal(value === undefined || value === null ? '' : String(value))
}

const COMPARISONS: Record<string, string> = {
  lessThan: '<',
  greaterThan: '>',
  lessThanOrEqual: '<=',
  greaterThanOrEqual: '>=',
}

/** One condition of the newer format, or why it cannot be translated. */
function rule(ref: FieldRef, operator: string, raw: unknown): Js | string {
  const value = valueFor(ref, raw)
  switch (operator) {
    case 'isEqual':
      return equalsValue(ref, value)
    case 'isNotEqual':
      return not(equalsValue(ref, value))
    case 'isEmpty':
      return isEmpty(ref)
    case 'isNotEmpty':
      return not(isEmpty(ref))
    case 'includes':
      return method(comparable(ref), 'includes', [value])
    case 'notIncludes':
      return not(method(comparable(ref), 'includes', [value]))
    case 'startsWith':
    case 'endsWith':
      return method(call('String', [comparable(ref)]), operator, [value])
    default: {
      const op = COMPARISONS[operator]
      if (op && ref.kind !== 'multi') return binary(op, comparable(ref), value)
      return `the operator "${operator}" has no translation`
    }
  }
}

function simple(draft: FormDraft, conditional: Json, path: string): Js | undefined {
  const show = !(conditional.show === false || conditional.show === 'false')
  const when = String(conditional.when)
  const field = findKey(draft, when)
  if (!field) {
    draft.skip(`${path}/conditional/when`, `"${when}" is not a field of the form`)
    return undefined
  }
  const ref = fieldRef(field)
  const test = equalsValue(ref, valueFor(ref, conditional.eq))
  return show ? test : not(test)
}

function newer(draft: FormDraft, conditional: Json, path: string): Js | undefined {
  const parts: Js[] = []
  let failed = false
  for (const [index, entry] of listOf(conditional.conditions).entries()) {
    const entryObject = isObject(entry) ? entry : {}
    const key = typeof entryObject.component === 'string' ? entryObject.component : ''
    const field = findKey(draft, key)
    const result = field
      ? rule(fieldRef(field), String(entryObject.operator), entryObject.value)
      : `"${key}" is not a field of the form`
    if (typeof result === 'object') parts.push(result)
    else {
      failed = true
      draft.skip(`${path}/conditional/conditions/${index}`, result)
    }
  }
  // A partial translation would show the field where the source hides it: all or nothing.
  if (failed) return undefined
  const joined = conditional.conjunction === 'any' ? or(parts) : and(parts)
  if (!joined) return undefined
  return conditional.show === false || conditional.show === 'false' ? not(joined) : joined
}

/** The component's own visibility condition, if it has one. */
export function formioCondition(draft: FormDraft, component: Json, path: string): Condition | undefined {
  const custom = component.customConditional
  if (typeof custom === 'string' && custom.trim() !== '') {
    return once(() => {
      const result = translateFormioScript(custom, 'show', (key) => findKey(draft, key))
      if (typeof result === 'object') return result
      draft.skip(`${path}/customConditional`, `not translated: ${result}`)
      return undefined
    })
  }
  const conditional = component.conditional
  if (!isObject(conditional)) return undefined
  if (isMeaningful(conditional.json)) {
    draft.skip(`${path}/conditional/json`, 'JSON Logic conditions have no translation')
    return undefined
  }
  if (typeof conditional.when === 'string' && conditional.when !== '')
    return once(() => simple(draft, conditional, path))
  if (listOf(conditional.conditions).length > 0) return once(() => newer(draft, conditional, path))
  return undefined
}
