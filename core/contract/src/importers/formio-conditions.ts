/**
 * Form.io visibility → show_with_formule. Form.io checks customConditional first, then the simple
 * conditional ({show, when, eq}, or the newer {show, conjunction, conditions}), then JSON Logic
 * (jsonlogic.ts). What each condition means is formio-semantics.ts's; conditions resolve at the
 * end, when every key has its field name.
 */
import { once, type Condition, type FormDraft } from './draft.js'
import { and, atom, literal, method, not, or, unary, type Js } from './js.js'
import { translateJsonLogic, truthOf, type VarReader } from './jsonlogic.js'
import { formioField, formioNumber, operatorCondition, simpleCondition, type FormioField } from './formio-semantics.js'
import { translateFormioScript } from './formio-script.js'
import { formioScriptBody } from './formio-script-body.js'
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

/**
 * How JSON Logic's `var` reads the submission (`data.key`, `data.container.key`, a select boxes'
 * `data.key.option`), with the value as Form.io holds it: an empty number is null there.
 */
export function formioVars(draft: FormDraft): VarReader {
  return (path, hasDefault) => {
    if (!path.startsWith('data.')) return `"var" reads "${path}", which only Form.io provides`
    const key = path.slice('data.'.length)
    const dot = key.lastIndexOf('.')
    const boxes = dot > 0 ? findKey(draft, key.slice(0, dot)) : undefined
    const owner = boxes ? formioField(boxes) : undefined
    if (typeof owner === 'object' && owner.kind === 'boxes') {
      const option = key.slice(dot + 1)
      if (!owner.options.includes(option)) return `"${option}" is not an option of "${key.slice(0, dot)}"`
      return { js: method(owner.js, 'includes', [literal(option)]), kinds: new Set(['boolean']) }
    }
    const field = readField(draft, key)
    if (typeof field === 'string') return field
    switch (field.kind) {
      case 'text':
        return { js: field.js, kinds: new Set(['string']) }
      case 'bool':
        return { js: field.js, kinds: new Set(['boolean']) }
      case 'multi':
        return { js: field.js, kinds: new Set(['array']) }
      case 'boxes':
        return `"var" reads the select boxes "${key}" as a whole, an object no condition here holds`
      case 'number': {
        // Form.io's empty number is null, which `var` returns as it is (its default only replaces undefined).
        if (hasDefault) return `a default for the number "${key}" depends on how Form.io stored its empty value`
        return { js: formioNumber(field), kinds: new Set(['number', 'null']) }
      }
    }
  }
}

/** The field a condition reads, as formio-semantics writes it, or the reason it is not carried. */
function readField(draft: FormDraft, key: string): FormioField | string {
  const field = findKey(draft, key)
  return field ? formioField(field) : `"${key}" is not a field of the form`
}

/** `at`: the conditional's own path in the source. */
function simple(draft: FormDraft, conditional: Json, at: string): Js | undefined {
  const field = readField(draft, String(conditional.when))
  if (typeof field === 'string') {
    draft.skip(`${at}/when`, field)
    return undefined
  }
  return simpleCondition(field, conditional.eq, conditional.show)
}

const scalarOf = (value: unknown): string | number | boolean | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined

function newer(draft: FormDraft, conditional: Json, at: string): Js | undefined {
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
      draft.skip(`${at}/conditions/${index}`, result)
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
      const find = (key: string) => findKey(draft, key)
      const result = translateFormioScript(custom, 'show', find, draft.readsRows)
      if (typeof result === 'object') return result
      // Statements: the whole script, as a function called in place so it combines with other conditions.
      const body = draft.readsRows ? { refused: result } : formioScriptBody(custom, 'show', find)
      if (typeof body === 'string') return atom(`(function () {\n${body}\n})()`)
      draft.skip(`${path}/customConditional`, `not translated: ${body.refused}`)
      return undefined
    })
  }
  const conditional = component.conditional
  if (!isObject(conditional)) return undefined
  // Form.io's order: the simple format, then the newer one, and JSON Logic only without either.
  if (typeof conditional.when === 'string' && conditional.when !== '')
    return once(() => simple(draft, conditional, `${path}/conditional`))
  const rules = listOf(conditional.conditions).filter(
    (c) => isObject(c) && typeof c.component === 'string' && c.component !== '' && isMeaningful(c.operator)
  )
  if (rules.length > 0) return once(() => newer(draft, conditional, `${path}/conditional`))
  // A falsy rule (0, '', false) is no rule to Form.io: the field shows.
  if (conditional.json) {
    return once(() => {
      const result = translateJsonLogic(conditional.json, formioVars(draft))
      if (typeof result === 'object') return truthOf(result)
      draft.skip(`${path}/conditional/json`, `not translated: ${result}`)
      return undefined
    })
  }
  return undefined
}

/**
 * A logic trigger's truth (Form.io's checkTrigger): `simple` reads as a conditional's "show", a
 * `javascript` trigger sets `result` (a failure or null is false), `json` is JSON Logic. Reports and
 * gives undefined when it is not carried; `at` is the trigger's path.
 */
export function formioTrigger(draft: FormDraft, trigger: unknown, at: string): Js | undefined {
  const type = isObject(trigger) ? String(trigger.type) : ''
  const rule = isObject(trigger) ? trigger[type] : undefined
  if (!isObject(trigger) || !isMeaningful(rule)) {
    draft.skip(at, `the trigger "${type}" has nothing to check, or no equivalent`)
    return undefined
  }
  if (type === 'simple' && isObject(rule)) {
    return typeof rule.when === 'string' && rule.when !== ''
      ? simple(draft, rule, `${at}/simple`)
      : newer(draft, rule, `${at}/simple`)
  }
  if (type === 'json') {
    const result = translateJsonLogic(rule, formioVars(draft))
    if (typeof result === 'object') return truthOf(result)
    draft.skip(`${at}/json`, `not translated: ${result}`)
    return undefined
  }
  if (type === 'javascript' && typeof rule === 'string') {
    const find = (key: string) => findKey(draft, key)
    const result = translateFormioScript(rule, 'result', find)
    if (typeof result === 'object') return unary('!', unary('!', result))
    const body = formioScriptBody(rule, 'result', find)
    if (typeof body === 'string') return atom(`(function () {\n${body}\n})()`)
    draft.skip(`${at}/javascript`, `not translated: ${body.refused}`)
    return undefined
  }
  draft.skip(at, `the trigger "${type}" has no equivalent`)
  return undefined
}
