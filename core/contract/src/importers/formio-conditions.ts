/**
 * Form.io visibility → show_with_formule. Form.io checks customConditional first, then the simple
 * conditional ({show, when, eq}, or the newer {show, conjunction, conditions}), then JSON Logic, which
 * has no translation. What each condition means is formio-semantics.ts's; conditions resolve at the
 * end, when every key has its field name.
 */
import { once, type Condition, type FormDraft } from './draft.js'
import { and, literal, not, or, type Js } from './js.js'
import { formioField, operatorCondition, simpleCondition, type FormioField } from './formio-semantics.js'
import { translateFormioScript } from './formio-script.js'
import { isMeaningful, isObject, listOf, type DraftItem, type Json } from './types.js'

/** A key of the form; a data path (container.key) falls back to its last part, as containers are flattened. */
export function findKey(draft: FormDraft, key: string): DraftItem | undefined {
  return draft.find(key) ?? (key.includes('.') ? draft.find(key.slice(key.lastIndexOf('.') + 1)) : undefined)
}

/** convertShowToBoolean (@formio/core): a text is read as JSON where it parses. */
function showOf(show: unknown): boolean {
  if (typeof show !== 'string') return Boolean(show)
  try {
    return Boolean(JSON.parse(show))
  } catch {
    return Boolean(show)
  }
}

/** The field a condition reads, as formio-semantics writes it, or the reason it is not carried. */
function readField(draft: FormDraft, key: string): FormioField | string {
  const field = findKey(draft, key)
  return field ? formioField(field) : `"${key}" is not a field of the form`
}

function simple(draft: FormDraft, conditional: Json, path: string): Js | undefined {
  const field = readField(draft, String(conditional.when))
  if (typeof field === 'string') {
    draft.skip(`${path}/conditional/when`, field)
    return undefined
  }
  return simpleCondition(field, conditional.eq, conditional.show)
}

const scalarOf = (value: unknown): string | number | boolean | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined

function newer(draft: FormDraft, conditional: Json, path: string): Js | undefined {
  const parts: Js[] = []
  let failed = false
  for (const [index, entry] of listOf(conditional.conditions).entries()) {
    const entryObject = isObject(entry) ? entry : {}
    const key = typeof entryObject.component === 'string' ? entryObject.component : ''
    // Form.io counts a condition without a field as passing.
    if (key === '') continue
    const field = readField(draft, key)
    const compared = scalarOf(entryObject.value ?? '')
    const result =
      typeof field === 'string'
        ? field
        : compared === undefined
          ? 'a compared value that is not text, a number or true/false has no translation'
          : operatorCondition(field, String(entryObject.operator), compared)
    if (typeof result === 'object') parts.push(result)
    else {
      failed = true
      draft.skip(`${path}/conditional/conditions/${index}`, result)
    }
  }
  // A partial translation would show the field where the source hides it: all or nothing.
  if (failed) return undefined
  const joined = (conditional.conjunction === 'any' ? or(parts) : and(parts)) ?? literal(true)
  return showOf(conditional.show ?? true) ? joined : not(joined)
}

/** The component's own visibility condition, if it has one. */
export function formioCondition(draft: FormDraft, component: Json, path: string): Condition | undefined {
  const custom = component.customConditional
  if (typeof custom === 'string' && custom.trim() !== '') {
    return once(() => {
      const result = translateFormioScript(custom, 'show', (key) => findKey(draft, key), draft.readsRows)
      if (typeof result === 'object') return result
      draft.skip(`${path}/customConditional`, `not translated: ${result}`)
      return undefined
    })
  }
  const conditional = component.conditional
  if (!isObject(conditional)) return undefined
  // Form.io's order: the simple format, then the newer one, and JSON Logic only without either.
  if (typeof conditional.when === 'string' && conditional.when !== '')
    return once(() => simple(draft, conditional, path))
  const rules = listOf(conditional.conditions).filter(
    (c) => isObject(c) && typeof c.component === 'string' && c.component !== '' && isMeaningful(c.operator)
  )
  if (rules.length > 0) return once(() => newer(draft, conditional, path))
  if (isMeaningful(conditional.json)) {
    draft.skip(`${path}/conditional/json`, 'JSON Logic conditions have no translation')
    return undefined
  }
  return undefined
}
