/**
 * What a Form.io condition means, written for the value the imported field holds (issue 24). Form.io
 * (@formio/js 5.6, utils.js checkSimpleConditional and utils/conditionOperators) reads a field's value
 * as `getComponentActualValue` gives it (null, undefined, {} and [] read as ''), compares with the
 * text of `eq` in the simple format, and in the newer one runs an operator per item of an array value
 * (true when any item passes), parsing the compared text as JSON when the value's type differs. Each
 * function below writes that for one kind of field, folding what is known at import into constants;
 * a field kind with no exact translation gives a reason instead, which the importer reports.
 *
 * The kinds: `text` (a string value: text fields, a single select or radio), `number` (a number, ''
 * when empty; null in older data), `bool` (a checkbox), `multi` (a multiple select: the ids chosen, where Form.io holds
 * the same array) and `boxes` (select boxes: the ids chosen, where Form.io holds {id: true|false}
 * for every option). The tests (formio.differential.importers.spec.ts) compare each with Form.io's
 * own code on generated forms and values.
 */
import type { DraftItem, Json } from './types.js'
import { and, atom, binary, call, literal, member, method, not, or, orElse, ternary, type Js } from './js.js'
import { itemRef } from './names.js'
import { YES_NO } from './values.js'

export type FormioKind = 'text' | 'number' | 'bool' | 'multi' | 'boxes'

export interface FormioField {
  kind: FormioKind
  js: Js
  /** The option ids of a multiple select or of select boxes. */
  options: string[]
}

const TEXT_TYPES = ['text', 'textarea', 'email', 'select', 'radios', 'tramita']

/**
 * A select fed from a URL with no `valueProperty` (Form.io's own, or a custom type read as a text
 * field, such as Nav's country picker) holds the chosen item itself, an object, and `{}` when none is
 * chosen; the imported field keeps one text in its place. A script reading the item's `.value` reads
 * that text (undefined when empty); anything else read of the item has no translation.
 */
export const formioHoldsItem = (c: Json): boolean =>
  c.dataSrc === 'url' && (c.valueProperty === undefined || c.valueProperty === '') && c.multiple !== true
const itemHolders = new WeakSet<DraftItem>()
export const markItemHolder = (item: DraftItem) => void itemHolders.add(item)
export const holdsItem = (item: DraftItem) => itemHolders.has(item)
/** The chosen item's `.value` as Form.io's script reads it: the field's text, undefined when empty. */
export const itemValue = (item: DraftItem): Js => {
  const js = atom(itemRef(item))
  return ternary(or([binary('==', js, literal(null)), eq(js, '')])!, atom('undefined'), js)
}

/** How a condition reads the field, or why it has no exact translation. */
export function formioField(item: DraftItem): FormioField | string {
  const js = atom(itemRef(item))
  const options = Array.isArray(item.data.options)
    ? (item.data.options as { id?: unknown }[]).map((o) => String(o.id))
    : []
  if (holdsItem(item))
    return 'Form.io holds the chosen item as an object: only its `.value` read in a script is translated'
  const multiple = item.data.multiple === true
  if ((item.type === 'list' || item.type === 'select') && multiple)
    return { kind: item.type === 'list' ? 'boxes' : 'multi', js, options }
  if (TEXT_TYPES.includes(item.type)) return { kind: 'text', js, options }
  if (item.type === 'number' || item.type === 'money') return { kind: 'number', js, options }
  if (item.type === 'checkbox' || item.type === 'switch') return { kind: 'bool', js, options }
  return `a condition on a ${item.type} field has no exact translation`
}

const FALSE = literal(false)
const eq = (left: Js, value: string | number | boolean) => binary('==', left, literal(value))
/**
 * The value as text: a text-kind value already is one (its types hold a string, '' when empty); a
 * number reads null as '' (Form.io's empty value).
 */
const textOf = (f: FormioField) => (f.kind === 'text' ? f.js : call('String', [orElse(f.js, literal(''))]))
/** A number field holds no number ('' as the contract's blank, or null). */
const noNumber = (f: FormioField) => eq(textOf(f), '')
/** A number field's value as Form.io's submission holds it: null when empty. */
export const formioNumber = (f: FormioField): Js => ternary(noNumber(f), literal(null), f.js)
const length = (f: FormioField) => member(f.js, 'length')
const isEmptyList = (f: FormioField) => eq(length(f), 0)
const holds = (f: FormioField, id: string) => method(f.js, 'includes', [literal(id)])
/** The multiple select or select boxes holds one of these ids (none: false). */
const holdsAnyOf = (f: FormioField, ids: string[]) => or(ids.map((id) => holds(f, id))) ?? FALSE

/** JSON.parse where it parses, the text otherwise (Form.io's IsEqualTo). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

type Scalar = string | number | boolean

/** A list index lodash's `has` finds in `eq` (a whole number, or its canonical text). */
function indexOf(eqRaw: unknown): number | undefined {
  const text = typeof eqRaw === 'number' || typeof eqRaw === 'string' ? String(eqRaw) : ''
  return /^(0|[1-9]\d*)$/.test(text) ? Number(text) : undefined
}

/** Holding `eq` shows it when `show` is true; else the list's text is compared ('' when empty). */
function multiSimple(f: FormioField, eqText: string, showTrue: boolean): Js {
  const text = call('String', [f.js])
  return showTrue
    ? (or([holds(f, eqText), eq(text, eqText)]) ?? FALSE)
    : (and([not(holds(f, eqText)), binary('!=', text, literal(eqText))]) ?? FALSE)
}

/** The simple format {show, when, eq}: checkSimpleConditional. */
export function simpleCondition(f: FormioField, eqRaw: unknown, showRaw: unknown): Js {
  const eqText = String(eqRaw)
  const show = String(showRaw)
  const showTrue = show === 'true'
  const apply = (test: Js) => (showTrue ? test : not(test))
  switch (f.kind) {
    case 'boxes': {
      // {id: bool} has the key `eq`: shown when String(value[eq]) is the text of `show`.
      if (eqRaw !== undefined && eqRaw !== null && f.options.includes(eqText)) {
        if (show === 'true') return holds(f, eqText)
        if (show === 'false') return not(holds(f, eqText))
        return FALSE
      }
      // Otherwise the object reads as '[object Object]' ('' without options).
      return literal((eqText === (f.options.length > 0 ? '[object Object]' : '')) === showTrue)
    }
    case 'multi': {
      // A chosen list is an object to lodash: an index `eq` reads the item there (lodash `has`).
      const index = indexOf(eqRaw)
      const rest = multiSimple(f, eqText, showTrue)
      if (index === undefined) return rest
      const item = call('String', [atom(`${f.js.code}[${index}]`)])
      return ternary(binary('>', length(f), literal(index)), eq(item, show), rest)
    }
    case 'bool':
      return apply(eqText === 'true' ? f.js : eqText === 'false' ? not(f.js) : FALSE)
    case 'number':
    case 'text':
      return apply(eq(textOf(f), eqText))
  }
}

/** Form.io's IsEqualTo.execute for one value of the field's kind against `cv`, as known at import. */
function isEqualTo(f: FormioField, cv: Scalar): Js {
  const truthy = Boolean(cv)
  const parsedCv = typeof cv === 'string' && truthy ? parsed(cv) : cv
  switch (f.kind) {
    case 'text':
      // Yes/no radios ('true' / 'false'): Form.io's radio holds them as booleans (Radio.normalizeValue),
      // so true and false compare with them too.
      if (typeof cv === 'boolean' && f.options.join() === YES_NO.join()) return eq(textOf(f), String(cv))
      return typeof cv === 'string' ? eq(textOf(f), cv) : FALSE
    case 'number': {
      // Empty reads as '', 0 is never parsed against (it is falsy), other numbers compare with the parse.
      const whenEmpty = literal(cv === '')
      const whenZero = literal(cv === 0)
      const other = typeof parsedCv === 'number' && truthy ? eq(f.js, parsedCv) : FALSE
      return ternary(noNumber(f), whenEmpty, ternary(eq(f.js, 0), whenZero, other))
    }
    case 'bool': {
      const q = parsedCv
      return q === true ? f.js : q === false ? not(f.js) : FALSE
    }
    case 'multi':
      return ternary(isEmptyList(f), literal(cv === ''), typeof cv === 'string' ? holds(f, cv) : FALSE)
    case 'boxes': {
      if (f.options.length === 0) return literal(cv === '')
      const key = truthy ? String(parsedCv) : undefined
      return key !== undefined && parsedCv && f.options.includes(key) ? holds(f, key) : FALSE
    }
  }
}

/** Some item of the multiple select passes `test` (Form.io's getResult over an array), '' when empty. */
function someItem(f: FormioField, whenEmpty: boolean, test: (id: string) => boolean): Js {
  return ternary(isEmptyList(f), literal(whenEmpty), holdsAnyOf(f, f.options.filter(test)))
}

/** lodash's toString of a compared value (startsWith, endsWith). */
const textOfCompared = (cv: Scalar) => String(cv)

/** One condition of the newer format {component, operator, value}: the operator's getResult. */
export function operatorCondition(f: FormioField, operator: string, cv: Scalar): Js | string {
  const s = textOfCompared(cv)
  switch (operator) {
    case 'isEqual':
      return isEqualTo(f, cv)
    case 'isNotEqual':
      if (f.kind === 'multi') {
        // Some item differs: an empty list reads as '' (one value); ids are unique.
        const differs = typeof cv === 'string' ? f.options.filter((id) => id !== cv) : f.options
        return ternary(isEmptyList(f), literal(cv !== ''), holdsAnyOf(f, differs))
      }
      return not(isEqualTo(f, cv))
    case 'isEmpty':
    case 'isNotEmpty': {
      // The component's own isEmpty, as Form.io asks the form's component when there is one.
      const empty =
        f.kind === 'text'
          ? eq(textOf(f), '')
          : f.kind === 'number'
            ? noNumber(f)
            : f.kind === 'bool'
              ? not(f.js)
              : isEmptyList(f)
      return operator === 'isEmpty' ? empty : not(empty)
    }
    case 'lessThan':
    case 'greaterThan':
    case 'lessThanOrEqual':
    case 'greaterThanOrEqual': {
      // Only a number passes (lodash isNumber); the compared value is used as given, and "or equal"
      // is lodash isEqual (a number equals only a number).
      if (f.kind !== 'number') return FALSE
      const strict = operator === 'lessThan' || operator === 'lessThanOrEqual' ? '<' : '>'
      const op = strict + (operator.endsWith('OrEqual') && typeof cv === 'number' ? '=' : '')
      return and([not(noNumber(f)), binary(op, f.js, literal(cv))]) ?? FALSE
    }
    case 'includes':
    case 'notIncludes': {
      const negate = operator === 'notIncludes'
      const flip = (js: Js) => (negate ? not(js) : js)
      switch (f.kind) {
        case 'text':
          return flip(method(textOf(f), 'includes', [literal(s)]))
        case 'number':
          // lodash includes on a number finds nothing; empty reads as ''.
          return ternary(noNumber(f), literal(('' as string).includes(s) !== negate), literal(negate))
        case 'bool':
          return literal(negate)
        case 'multi':
          return someItem(f, ''.includes(s) !== negate, (id) => id.includes(s) !== negate)
        case 'boxes': {
          // The object's values are booleans: true when one is chosen, false when one is not.
          if (f.options.length === 0) return literal(''.includes(s) !== negate)
          const found =
            cv === true ? not(isEmptyList(f)) : cv === false ? binary('<', length(f), literal(f.options.length)) : FALSE
          return flip(found)
        }
      }
      break
    }
    case 'startsWith':
    case 'endsWith': {
      const pass = (text: string) => (operator === 'startsWith' ? text.startsWith(s) : text.endsWith(s))
      switch (f.kind) {
        case 'text':
        case 'number':
          return method(textOf(f), operator, [literal(s)])
        case 'bool':
          return method(call('String', [f.js]), operator, [literal(s)])
        case 'multi':
          return someItem(f, pass(''), pass)
        case 'boxes':
          return literal(pass(f.options.length > 0 ? '[object Object]' : ''))
      }
    }
  }
  return `the operator "${operator}" has no translation`
}
