/**
 * How a condition reads a field depends on the value its type holds: a list of ids (multiple
 * choices), a boolean, a level (-1 when unset), a phone object or a plain value. These helpers write
 * the comparisons the sources express, for the value each field type really holds.
 */
import { array, atom, binary, call, literal, member, method, or, orElse, type Js } from './js.js'
import { itemRef } from './names.js'
import type { DraftItem } from './types.js'

export type ValueKind = 'scalar' | 'multi' | 'bool' | 'yesno' | 'level' | 'phone'

/** The option ids of an imported yes / no question (radios holding 'true', 'false', '' unanswered). */
export const YES_NO = ['true', 'false'] as const

const isYesNo = (item: DraftItem) =>
  Array.isArray(item.data.options) &&
  item.data.options.length === 2 &&
  (item.data.options as { id?: unknown }[]).every((o, i) => o.id === YES_NO[i])

/** A field a condition may read: its script reference and the kind of value it holds. */
export interface FieldRef {
  js: Js
  kind: ValueKind
}

export function valueKind(item: DraftItem): ValueKind {
  switch (item.type) {
    case 'radios':
      if (isYesNo(item)) return 'yesno'
      return item.data.multiple === true ? 'multi' : 'scalar'
    case 'list':
    case 'select':
      return item.data.multiple === true ? 'multi' : 'scalar'
    case 'table':
    case 'repeat':
    case 'file':
      return 'multi'
    case 'checkbox':
    case 'switch':
    case 'radio':
      return 'bool'
    case 'level':
      return 'level'
    case 'celular':
      return 'phone'
    default:
      return 'scalar'
  }
}

export const fieldRef = (item: DraftItem): FieldRef => ({ js: atom(itemRef(item)), kind: valueKind(item) })

/** The comparable value: a phone compares by its number; a yes/no answer is true only when answered yes. */
export const comparable = (ref: FieldRef): Js =>
  ref.kind === 'phone' ? member(ref.js, 'value') : ref.kind === 'yesno' ? binary('==', ref.js, literal('true')) : ref.js

/** Empty as the sources mean it: '', null, [] (String([]) is ''); a level is empty below 0. */
export function isEmpty(ref: FieldRef): Js {
  if (ref.kind === 'level') return binary('<', ref.js, literal(0))
  if (ref.kind === 'yesno') return binary('==', ref.js, literal(''))
  return binary('==', call('String', [orElse(comparable(ref), literal(''))]), literal(''))
}

/** Equality with a literal; a multiple choice "equals" a value when it holds it. */
export function equalsValue(ref: FieldRef, value: Js): Js {
  // A yes/no answer equals true or false only once given ('' until then).
  if (ref.kind === 'yesno' && (value.code === 'true' || value.code === 'false'))
    return binary('==', ref.js, literal(value.code))
  return ref.kind === 'multi' ? method(ref.js, 'includes', [value]) : binary('==', comparable(ref), value)
}

/** The field holds any of the values (one of them, for a single value). */
export function holdsAny(ref: FieldRef, values: Js[]): Js {
  if (ref.kind === 'multi') return or(values.map((v) => method(ref.js, 'includes', [v]))) ?? literal(false)
  return method(array(values), 'includes', [comparable(ref)])
}
