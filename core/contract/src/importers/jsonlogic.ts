/**
 * JSON Logic (json-logic-js 2.0.5, which Form.io evaluates its `conditional.json` and object
 * `calculateValue` with) → an expression of the sandbox's subset, meaning exactly what json-logic-js
 * computes (issue 24). Each translated piece carries the kinds of value it can hold, known at import,
 * because JSON Logic differs from JavaScript where arrays are concerned: an empty array is falsy in
 * `!`, `!!`, `and`, `or` and `if`. A piece whose kinds would need that rule on a value that may or may
 * not be an array is refused, as is every operation outside the list below (iteration, `merge`,
 * `missing`, Form.io's lodash and date operations): the importer reports those with the reason.
 *
 * Carried: `var` (through the caller's `read`), literals and arrays of them, == != === !== < <= > >=
 * (with the three-operand between), ! !!, and, or, if / ?:, in, cat, substr (non-negative literal
 * bounds), + - * / %, min, max. json-logic-js evaluates every operand before an operation (except in
 * and / or / if), and every translated piece is pure, so evaluating one twice (between, and / or over
 * arrays) changes nothing.
 */
import { and, array, binary, call, literal, member, method, or, orElse, ternary, unary, type Js } from './js.js'
import { isObject } from './types.js'

export type Kind = 'string' | 'number' | 'boolean' | 'null' | 'array'

/** A translated piece: its code and every kind of value it can evaluate to. */
export interface Typed {
  js: Js
  kinds: ReadonlySet<Kind>
}

/** What `read` gives for a `var` path: the value as json-logic-js would find it, or why it cannot. */
export type VarReader = (path: string, hasDefault: boolean) => Typed | string

class Refused extends Error {}

const typed = (js: Js, ...kinds: Kind[]): Typed => ({ js, kinds: new Set(kinds) })
const union = (pieces: Typed[]): Set<Kind> => new Set(pieces.flatMap((p) => [...p.kinds]))
const only = (piece: Typed, kind: Kind) => piece.kinds.size === 1 && piece.kinds.has(kind)

/** jsonLogic.truthy as a test: an array by its length, anything else as JavaScript tests it. */
function test(piece: Typed): Js {
  if (!piece.kinds.has('array')) return piece.js
  if (only(piece, 'array')) return binary('>', member(piece.js, 'length'), literal(0))
  throw new Refused('a value that may or may not be a list is tested for truth')
}

const boolean = (js: Js) => typed(js, 'boolean')

function operands(values: unknown[], read: VarReader): Typed[] {
  return values.map((value) => translate(value, read))
}

function arity(op: string, list: unknown[], min: number): void {
  if (list.length < min) throw new Refused(`"${op}" with fewer than ${min} operands`)
}

/** `and` returns the first falsy operand or the last one; `or` the first truthy one or the last. */
function logical(op: 'and' | 'or', pieces: Typed[]): Typed {
  if (pieces.length === 0) throw new Refused(`"${op}" with no operands`)
  const kinds = union(pieces)
  if (!kinds.has('array')) return { js: (op === 'and' ? and : or)(pieces.map((p) => p.js))!, kinds }
  const fold = (at: number): Js => {
    const piece = pieces[at]!
    if (at === pieces.length - 1) return piece.js
    return op === 'and' ? ternary(test(piece), fold(at + 1), piece.js) : ternary(test(piece), piece.js, fold(at + 1))
  }
  return { js: fold(0), kinds }
}

/** `if`: pairs of condition and value, then an optional else (null without one). */
function conditional(values: unknown[], read: VarReader): Typed {
  const pieces = operands(values, read)
  const none = typed(literal(null), 'null')
  const fold = (at: number): Js => {
    if (at === pieces.length - 1) return pieces[at]!.js
    if (at >= pieces.length) return none.js
    return ternary(test(pieces[at]!), pieces[at + 1]!.js, fold(at + 2))
  }
  const results = pieces.filter((_, i) => i % 2 === 1 || i === pieces.length - 1)
  return { js: fold(0), kinds: union(pieces.length % 2 === 0 ? [...results, none] : results) }
}

/** `in`: a text holds the text of `a`, a list holds `a` itself; anything else (or '') holds nothing. */
function inside(a: Typed, b: Typed): Typed {
  const found = binary('!=', method(b.js, 'indexOf', [a.js]), literal(-1))
  if (only(b, 'array')) return boolean(found)
  if (only(b, 'string')) return boolean(binary('&&', binary('!=', b.js, literal('')), found))
  if (!b.kinds.has('string') && !b.kinds.has('array')) return boolean(literal(false))
  throw new Refused('"in" over a value that may be text, a list or neither')
}

/** Array.prototype.join's text of one value: '' for null. */
function joined(piece: Typed): Js {
  if (only(piece, 'string')) return piece.js
  return call('String', [piece.kinds.has('null') ? orElse(piece.js, literal('')) : piece.js])
}

const parsed = (piece: Typed) => call('parseFloat', [piece.js])

/** substr(source, start, end) with literal whole bounds, start ≥ 0 (a negative end drops that many at the end). */
function substr(values: unknown[], read: VarReader): Typed {
  const [source, start, end] = values
  const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v)
  if (!whole(start) || (start as number) < 0 || (end !== undefined && !whole(end))) {
    throw new Refused('"substr" with bounds other than whole numbers from the start')
  }
  const text = call('String', [translate(source, read).js])
  const from = start as number
  if (end === undefined) return typed(method(text, 'slice', [literal(from)]), 'string')
  const length = end as number
  if (length < 0)
    return typed(method(method(text, 'slice', [literal(from)]), 'slice', [literal(0), literal(length)]), 'string')
  return typed(method(text, 'slice', [literal(from), literal(from + length)]), 'string')
}

const COMPARISONS = new Set(['==', '!=', '===', '!==', '>', '>='])
const ARITHMETIC = new Set(['-', '/', '%'])

/** One JSON Logic value: a rule (an object of one key), a list of values, or a literal. */
function translate(logic: unknown, read: VarReader): Typed {
  if (Array.isArray(logic)) return typed(array(operands(logic, read).map((p) => p.js)), 'array')
  if (logic === null) return typed(literal(null), 'null')
  if (typeof logic === 'string') return typed(literal(logic), 'string')
  if (typeof logic === 'number') {
    if (!Number.isFinite(logic)) throw new Refused('a number that JSON cannot hold')
    return typed(literal(logic), 'number')
  }
  if (typeof logic === 'boolean') return typed(literal(logic), 'boolean')
  if (!isObject(logic) || Object.keys(logic).length !== 1) throw new Refused('an object that is not a rule')
  const op = Object.keys(logic)[0]!
  const raw = logic[op]
  const values = Array.isArray(raw) ? raw : [raw]
  if (op === 'var') return variable(values, read)
  if (op === 'if' || op === '?:') return conditional(values, read)
  if (op === 'and' || op === 'or') return logical(op, operands(values, read))
  if (op === 'substr') return substr(values, read)
  const list = operands(values, read)
  if (COMPARISONS.has(op)) {
    arity(op, list, 2)
    return boolean(binary(op, list[0]!.js, list[1]!.js))
  }
  if (op === '<' || op === '<=') {
    arity(op, list, 2)
    const first = binary(op, list[0]!.js, list[1]!.js)
    return boolean(list.length > 2 ? binary('&&', first, binary(op, list[1]!.js, list[2]!.js)) : first)
  }
  if (op === '!' || op === '!!') {
    arity(op, list, 1)
    const truth = test(list[0]!)
    return boolean(op === '!' ? unary('!', truth) : unary('!', unary('!', truth)))
  }
  if (op === 'in') {
    arity(op, list, 2)
    return inside(list[0]!, list[1]!)
  }
  if (op === 'cat') {
    const parts = list.map(joined)
    return typed(
      parts.reduce<Js | undefined>((acc, p) => (acc ? binary('+', acc, p) : p), undefined) ?? literal(''),
      'string'
    )
  }
  if (op === '+')
    return typed(
      list.reduce((acc, p) => binary('+', acc, parsed(p)), literal(0)),
      'number'
    )
  if (op === '*') {
    arity(op, list, 1)
    if (list.length === 1) return list[0]!
    const product = list
      .slice(1)
      .reduce((acc, p, i) => binary('*', i === 0 ? acc : call('parseFloat', [acc]), parsed(p)), parsed(list[0]!))
    return typed(product, 'number')
  }
  if (op === '-' && list.length === 1) return typed(unary('-', list[0]!.js), 'number')
  if (ARITHMETIC.has(op)) {
    arity(op, list, 2)
    return typed(binary(op, list[0]!.js, list[1]!.js), 'number')
  }
  if (op === 'min' || op === 'max')
    return typed(
      call(
        `Math.${op}`,
        list.map((p) => p.js)
      ),
      'number'
    )
  throw new Refused(`the JSON Logic operation "${op}" has no translation`)
}

function variable(values: unknown[], read: VarReader): Typed {
  const [path] = values
  if (typeof path !== 'string' || path === '') throw new Refused('"var" of something other than a named value')
  const found = read(path, values.length > 1)
  if (typeof found === 'string') throw new Refused(found)
  return found
}

/**
 * A condition's result as Form.io uses it, JavaScript's truth of whatever the rule gave, computed in
 * the expression: a sandbox result that is not JSON (NaN, Infinity) would not cross back as itself.
 */
export function truthOf(piece: Typed): Js {
  return only(piece, 'boolean') ? piece.js : unary('!', unary('!', piece.js))
}

/** The translation of `logic`, or why it has none. */
export function translateJsonLogic(logic: unknown, read: VarReader): Typed | string {
  try {
    return translate(logic, read)
  } catch (error) {
    if (error instanceof Refused) return error.message
    throw error
  }
}
