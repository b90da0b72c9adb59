/**
 * What a SurveyJS comparison of a question with literals means, written for the value the imported field
 * holds (issue 24). survey-core 3.0 (OperandMaker, Helpers.checkIfValuesEqual) compares text trimmed and
 * without case, numbers with numeric text, true/false with their text; an unanswered question is
 * undefined, which equals only ''; `contains`, `anyof`, `allof`, `noneof`, `empty` have their own rules
 * for lists and empty values. Everything known at import (the literal, a list's option ids) is folded
 * into constants here, so the script only reads the field. The differential test
 * (surveyjs.differential.importers.spec.ts) runs survey-core itself beside the imported form.
 *
 * The kinds: `text` (a string, '' unanswered), `number` (a number, '' unanswered), `choice` (one of its
 * option ids, '' unanswered) and `yesno` (an imported yes / no question: 'true' / 'false', ''
 * unanswered), whose few possible values are each decided at import, and `multi` (the ids chosen; none:
 * unanswered). Other fields keep the generic translation (surveyjs-emit.ts).
 */
import { and, atom, binary, call, literal, member, method, not, or, orElse, ternary, type Js } from './js.js'
import { itemRef } from './names.js'
import type { DraftItem } from './types.js'
import { valueKind } from './values.js'

export type SurveyKind = 'text' | 'number' | 'choice' | 'yesno' | 'multi'
export type Lit = string | number | boolean | null

export interface SurveyField {
  kind: SurveyKind
  js: Js
  /** The option ids of a multiple choice. */
  options: Lit[]
}

const TEXT_TYPES = ['text', 'textarea', 'email', 'select', 'radios', 'list']

export function surveyField(item: DraftItem): SurveyField | undefined {
  const js = atom(itemRef(item))
  const options = Array.isArray(item.data.options) ? (item.data.options as { id?: Lit }[]).map((o) => o.id ?? null) : []
  const kind = valueKind(item)
  if (kind === 'yesno') return { kind: 'yesno', js, options }
  if (kind === 'multi')
    return item.type === 'table' || item.type === 'file' ? undefined : { kind: 'multi', js, options }
  if (item.type === 'number' || item.type === 'money') return { kind: 'number', js, options }
  if (TEXT_TYPES.includes(item.type) && kind === 'scalar')
    return { kind: options.length > 0 ? 'choice' : 'text', js, options }
  return undefined
}

const TRUE = literal(true)
const FALSE = literal(false)
const length = (f: SurveyField) => member(f.js, 'length')
/** The value as text, null (older data) read as ''. */
const textOf = (f: SurveyField) => call('String', [orElse(f.js, literal(''))])

/** Unanswered: '' (or null in older data), no choice. */
function unanswered(f: SurveyField): Js {
  return f.kind === 'multi' ? binary('==', length(f), literal(0)) : binary('==', textOf(f), literal(''))
}

// ---- Helpers.checkIfValuesEqual on plain values, run at import where both sides are known ----

const isEmptyValue = (v: unknown) => (Array.isArray(v) && v.length === 0) || (!v && v !== 0 && v !== false)
const isNumeric = (v: unknown) =>
  v !== null && v !== undefined && typeof v !== 'boolean' && v !== '' && !Array.isArray(v) && !isNaN(Number(v))

/** survey-core's equality of two plain values (text, numbers, true/false, undefined). */
function valuesEqual(x: Lit | undefined, y: Lit | undefined): boolean {
  if (x === y) return true
  if ((x === undefined || x === null) && y === '') return true
  if ((y === undefined || y === null) && x === '') return true
  if (typeof x === 'string' && typeof y === 'string') return x.trim().toLowerCase() === y.trim().toLowerCase()
  if (isNumeric(x) && isNumeric(y) && parseInt(String(x)) === parseInt(String(y))) {
    if (parseFloat(String(x)) === parseFloat(String(y))) return true
  }
  if (isEmptyValue(x) !== isEmptyValue(y)) return false
  if (typeof x === 'boolean' && typeof y === 'string') return String(x) === y.toLocaleLowerCase()
  if (typeof y === 'boolean' && typeof x === 'string') return String(y) === x.toLocaleLowerCase()
  // survey-core's own last step is a loose comparison.
  return x == y
}

// ---- survey-core's operators on plain values, for the questions whose values are all known ----

type Plain = Lit | undefined | Plain[]

/** Const.getCorrectValue: how an expression sees a value ('true' is true, '3' is 3, '03' stays text). */
function seen(value: Lit | undefined): Lit | undefined {
  if (!value || typeof value !== 'string') return value
  const lower = value.toLowerCase()
  if (lower === 'true' || lower === 'false') return lower === 'true'
  const trimmed = value.trim()
  if (trimmed === '' || !Number.isFinite(Number(trimmed)) || /^[+-]?0x/i.test(trimmed)) return value
  if (value[0] === '0' && value.length > 1 && value[1] !== '.' && value[1] !== ',') return value
  return Number(trimmed)
}

function plainEqual(x: Plain, y: Plain): boolean {
  // An empty list equals a missing value.
  if (Array.isArray(x) && x.length === 0 && y === undefined) return true
  if (Array.isArray(y) && y.length === 0 && x === undefined) return true
  if (!Array.isArray(x) && !Array.isArray(y)) return valuesEqual(x, y)
  return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => plainEqual(v, y[i]))
}

function containsCore(left: Plain, right: Plain, isContains: boolean): boolean {
  if (Array.isArray(left) && left.length === 0) return !isContains
  if (!left && left !== 0 && left !== false) return false
  if (!Array.isArray(left)) {
    if (!right) return false
    const found = String(left).toLowerCase().includes(String(right).toLowerCase())
    return isContains ? found : !found
  }
  for (const r of Array.isArray(right) ? right : [right]) {
    if (!left.some((item) => plainEqual(item, r))) return !isContains
  }
  return isContains
}

function anyof(left: Plain, right: Plain): boolean {
  if (isEmptyValue(left) && isEmptyValue(right)) return true
  if (isEmptyValue(left)) return false
  if (isEmptyValue(right)) return true
  if (!Array.isArray(left)) return containsCore(right, left, true)
  if (!Array.isArray(right)) return containsCore(left, right, true)
  return right.some((r) => containsCore(left, r, true))
}

const greater = (l: Plain, r: Plain) =>
  l !== undefined && l !== null && r !== null && r !== undefined && (l as never) > (r as never)
const less = (l: Plain, r: Plain) =>
  l !== undefined && l !== null && r !== null && r !== undefined && (l as never) < (r as never)

/** OperandMaker's binary functions (and empty), on values an expression sees. */
function operate(op: string, left: Plain, right: Plain): boolean {
  switch (op) {
    case '==':
      return plainEqual(left, right)
    case '!=':
      return !plainEqual(left, right)
    case '>':
      return greater(left, right)
    case '<':
      return less(left, right)
    case '>=':
      return plainEqual(left, right) || greater(left, right)
    case '<=':
      return plainEqual(left, right) || less(left, right)
    case 'contains':
      return containsCore(left, right, true)
    case 'notcontains':
      return !left && !isEmptyValue(right) ? true : containsCore(left, right, false)
    case 'anyof':
      return anyof(left, right)
    case 'noneof':
      return !anyof(left, right)
    case 'allof':
      if (!left && !isEmptyValue(right)) return false
      if (!Array.isArray(right)) return containsCore(left, right, true)
      return right.every((r) => containsCore(left, r, true))
    case 'empty':
      return isEmptyValue(left)
    case 'notempty':
      return !isEmptyValue(left)
  }
  throw new Error(`no operator ${op}`)
}

/**
 * A question whose values are all known (a choice: its option ids; yes / no: true, false): `test` is
 * decided for each at import, and the script checks which one the field holds.
 */
function byCases(f: SurveyField, test: (value: Lit | undefined) => boolean): Js {
  const cases: [Js, boolean][] =
    f.kind === 'yesno'
      ? [
          [binary('==', f.js, literal('')), test(undefined)],
          [binary('==', f.js, literal('true')), test(true)],
          [binary('==', f.js, literal('false')), test(false)],
        ]
      : [
          [unanswered(f), test(undefined)],
          ...f.options.map((id): [Js, boolean] => [binary('==', f.js, literal(id)), test(seen(id ?? undefined))]),
        ]
  const holding = cases.filter(([, holds]) => holds).map(([js]) => js)
  const failing = cases.filter(([, holds]) => !holds).map(([js]) => js)
  // Whichever list is shorter: `uso != "nunca"` rather than every other option.
  if (failing.length < holding.length) return failing.length === 0 ? TRUE : not(or(failing)!)
  return or(holding) ?? FALSE
}

/**
 * The answered question equals the literal (survey-core's equality, folded where it can be). For the
 * kinds compareWith writes here: text, number and a multiple choice (choices and yes / no go byCases).
 */
function answeredEquals(f: SurveyField, value: Lit): Js {
  if (f.kind === 'text') {
    if (typeof value === 'string')
      return binary('==', method(method(f.js, 'trim', []), 'toLowerCase', []), literal(value.trim().toLowerCase()))
    if (typeof value === 'boolean') return binary('==', method(f.js, 'toLowerCase', []), literal(String(value)))
    return value === null ? FALSE : binary('==', f.js, literal(value))
  }
  if (f.kind === 'number' && value !== '' && value !== null) return binary('==', f.js, literal(value))
  // A list never equals a single value.
  return FALSE
}

/** `{q} = value`: unanswered equals only ''. */
function equalsLiteral(f: SurveyField, value: Lit): Js {
  // A multiple choice is a list even unanswered ([]), and a list never equals a single value.
  if (f.kind === 'multi') return FALSE
  return ternary(unanswered(f), literal(value === ''), answeredEquals(f, value))
}

/** `{q} > value` and the rest: never for an unanswered question or a null; JavaScript's comparison. */
function compareLiteral(f: SurveyField, op: '<' | '>' | '<=' | '>=', value: Lit): Js {
  if (value === null) return op.length === 2 ? equalsLiteral(f, value) : FALSE
  const strict = binary(op[0]!, f.js, literal(value))
  // A list, answered or not ([]), compares as JavaScript compares it (by its text).
  if (f.kind === 'multi') return strict
  const test = op.length === 2 ? (or([answeredEquals(f, value), strict]) ?? FALSE) : strict
  // Unanswered: only "or equal" to '' holds.
  return ternary(unanswered(f), literal(op.length === 2 && value === ''), test)
}

/** The chosen ids equal to `value` (survey-core's equality), as "holds one of them". */
function holdsEqual(f: SurveyField, value: Lit): Js {
  const ids = f.options.filter((id) => valuesEqual(id, value))
  return or(ids.map((id) => method(f.js, 'includes', [literal(id)]))) ?? FALSE
}

/** containsCore(answered question, value, true): a list holds an equal item; text holds the text. */
function answeredContains(f: SurveyField, value: Lit): Js {
  if (f.kind === 'multi') return holdsEqual(f, value)
  // Text, a number or true/false as text; a falsy value is never contained.
  if (!value) return FALSE
  const text = f.kind === 'text' ? f.js : textOf(f)
  return method(method(text, 'toLowerCase', []), 'includes', [literal(String(value).toLowerCase())])
}

/** A number answer of 0 is falsy in JavaScript: notcontains and allof treat it as missing. */
const falsyAnswer = (f: SurveyField) => (f.kind === 'number' ? binary('==', f.js, literal(0)) : undefined)

function containsLiteral(f: SurveyField, value: Lit, negate: boolean): Js {
  // An unanswered multiple choice is [], which contains nothing.
  if (f.kind === 'multi') return negate ? not(holdsEqual(f, value)) : holdsEqual(f, value)
  // Unanswered text reads '', which contains no value that passes (a falsy one never does).
  if (!negate) return answeredContains(f, value)
  // notcontains: a missing or falsy answer passes when the value is not empty.
  const passesMissing = !isEmptyValue(value)
  const falsy = falsyAnswer(f)
  const notFound = !value ? FALSE : not(answeredContains(f, value))
  const answered = falsy ? ternary(falsy, literal(passesMissing), notFound) : notFound
  return ternary(unanswered(f), literal(passesMissing), answered)
}

/** anyof / noneof / allof with a list of literals (or one). */
function membership(f: SurveyField, op: 'anyof' | 'noneof' | 'allof', values: Lit[] | Lit): Js {
  const list = Array.isArray(values) ? values : [values]
  const rightEmpty = isEmptyValue(values)
  if (op === 'allof') {
    // A missing or falsy answer has none of a non-empty list; every item must be held.
    const all = Array.isArray(values)
      ? (and(list.map((v) => answeredContains(f, v))) ?? TRUE)
      : answeredContains(f, values as Lit)
    const falsy = falsyAnswer(f)
    const answered = falsy && !rightEmpty ? ternary(falsy, FALSE, all) : all
    return ternary(unanswered(f), literal(rightEmpty), answered)
  }
  let any: Js
  if (rightEmpty) any = TRUE
  else if (f.kind === 'multi') any = or(list.map((v) => holdsEqual(f, v))) ?? FALSE
  else any = or(list.map((v) => answeredEquals(f, v))) ?? FALSE
  // Unanswered: true only against an empty list.
  const result = ternary(unanswered(f), literal(rightEmpty), any)
  return op === 'anyof' ? result : not(result)
}

/** `{q} empty` / `notempty`. */
function emptiness(f: SurveyField, negate: boolean): Js {
  return negate ? not(unanswered(f)) : unanswered(f)
}

/** Text that an expression would see as a number or true / false: comparing it is not carried. */
const looksConverted = (value: Lit) => typeof value === 'string' && typeof seen(value) !== 'string'

/**
 * `{q} op right` for a question and literals (one, or a list for anyof / allof / noneof), as survey-core
 * evaluates it; or the reason it is not carried.
 */
export function compareWith(f: SurveyField, op: string, right: Lit | Lit[] | undefined): Js | string {
  if (f.kind === 'choice' || f.kind === 'yesno') return byCases(f, (value) => operate(op, value, right))
  if (op === 'empty' || op === 'notempty') return emptiness(f, op === 'notempty')
  if (Array.isArray(right)) {
    if (f.kind === 'multi' && (op === '==' || op === '!=')) {
      const same = sameChoices(f, right)
      return typeof same === 'string' ? same : op === '==' ? same : not(same)
    }
    if (op !== 'anyof' && op !== 'noneof' && op !== 'allof') return 'comparing with a list has no translation'
    if (f.kind === 'text' && right.some(looksConverted))
      return 'a text answer compared with numeric text depends on how SurveyJS converts the answer'
    return membership(f, op, right)
  }
  if (right === undefined) return 'no translation'
  if (f.kind === 'text') {
    // SurveyJS reads '3' typed in a text question as the number 3 and 'TRUE' as true.
    if (['<', '>', '<=', '>='].includes(op)) return 'ordering a text answer depends on how SurveyJS converts the answer'
    if (looksConverted(right) || typeof right === 'number' || typeof right === 'boolean')
      return 'a text answer compared with a number or true/false depends on how SurveyJS converts the answer'
  }
  switch (op) {
    case '==':
      return equalsLiteral(f, right)
    case '!=':
      return not(equalsLiteral(f, right))
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compareLiteral(f, op, right)
    case 'contains':
    case 'notcontains':
      return containsLiteral(f, right, op === 'notcontains')
    case 'anyof':
    case 'noneof':
    case 'allof':
      return membership(f, op, right)
  }
  return `the operator "${op}" has no translation`
}

/**
 * `{m} = [...]`: survey-core compares the two lists sorted, item by item; for a list of the question's
 * own ids (each once) that is "holds exactly these". Other lists are not carried.
 */
function sameChoices(f: SurveyField, list: Lit[]): Js | string {
  const ids = f.options.map((id) => String(id))
  const exact = list.every((v, i) => typeof v === 'string' && ids.includes(v) && list.indexOf(v) === i)
  if (!exact) return "comparing a multiple choice with a list other than some of its own ids isn't carried"
  return (
    and([binary('==', length(f), literal(list.length)), ...list.map((v) => method(f.js, 'includes', [literal(v)]))]) ??
    TRUE
  )
}
