/**
 * SurveyJS expression tree → JavaScript for show_with_formule and formule. Questions are read through
 * `resolve`, which knows the field each {name} became and the kind of value it holds, so `contains`
 * and `anyof` work on lists of choices and `empty` on every type. What has no translation throws.
 */
import { and, array, binary, call, literal, method, not, or, ternary, unary, type Js } from './js.js'
import { ExpressionError, parseSurveyExpression, type Node } from './surveyjs-expression.js'
import { comparable, equalsValue, holdsAny, isEmpty, type FieldRef } from './values.js'
import { compareWith, type Lit, type SurveyField } from './surveyjs-semantics.js'

/** A question: how a generic expression reads it, and how a comparison with literals reads it (exact). */
export type Resolved = FieldRef & { survey?: SurveyField }
export type Resolve = (name: string) => Resolved | undefined

const ARITHMETIC: Record<string, string> = { '+': '+', '-': '-', '*': '*', '/': '/', '%': '%', '^': '**' }
const ORDER = new Set(['<', '>', '<=', '>='])
/** The SurveyJS functions with a JavaScript translation; the numeric ones give numbers. */
export const NUMERIC_FUNCTIONS = new Set(['sum', 'min', 'max', 'abs', 'round'])
const FUNCTIONS = new Set([...NUMERIC_FUNCTIONS, 'iif'])

class Emitter {
  constructor(private readonly resolve: Resolve) {}

  ref(node: Node): Resolved | undefined {
    if (node.t !== 'var') return undefined
    const found = this.resolve(node.name)
    if (!found) throw new ExpressionError(`{${node.name}} is not a question of the survey`)
    return found
  }

  /** A node as a value: a question reads as its comparable value (a phone as its number). */
  value(node: Node): Js {
    switch (node.t) {
      case 'lit':
        return literal(node.value)
      case 'var':
        return comparable(this.ref(node)!)
      case 'array':
        return array(node.items.map((item) => this.value(item)))
      case 'not':
        return not(this.value(node.arg))
      case 'neg':
        return unary('-', this.value(node.arg))
      case 'empty': {
        const survey = this.ref(node.arg)?.survey
        if (survey) return compareWith(survey, node.negate ? 'notempty' : 'empty', undefined) as Js
        const test = isEmpty(this.ref(node.arg) ?? { js: this.value(node.arg), kind: 'scalar' })
        return node.negate ? not(test) : test
      }
      case 'call':
        return this.call(node.name.toLowerCase(), node.args)
      case 'bin':
        return this.binary(node.op, node.left, node.right)
    }
  }

  binary(op: string, left: Node, right: Node): Js {
    if (op === 'and' || op === 'or') return (op === 'and' ? and : or)([this.value(left), this.value(right)])!
    const exact = this.withLiterals(op, left, right)
    if (exact) return exact
    if (ARITHMETIC[op]) return binary(ARITHMETIC[op], this.value(left), this.value(right))
    if (ORDER.has(op)) return binary(op, this.value(left), this.value(right))
    if (op === '==' || op === '!=') {
      if (left.t === 'array' || right.t === 'array')
        throw new ExpressionError('comparing with a list has no translation')
      const [field, other] = left.t === 'var' ? [left, right] : [right, left]
      const ref = this.ref(field)
      const test = ref ? equalsValue(ref, this.value(other)) : binary('==', this.value(left), this.value(right))
      return op === '==' ? test : not(test)
    }
    if (op === 'contains' || op === 'notcontains') {
      const test = method(this.value(left), 'includes', [this.value(right)])
      return op === 'contains' ? test : not(test)
    }
    return this.membership(op, left, right)
  }

  /**
   * A question compared with literals, as survey-core compares (surveyjs-semantics.ts), for the kinds
   * of question it knows; undefined leaves the generic translation.
   */
  withLiterals(op: string, left: Node, right: Node): Js | undefined {
    const literalOf = (node: Node): Lit | undefined => (node.t === 'lit' ? node.value : undefined)
    const exact = (field: SurveyField, operator: string, value: Lit | Lit[] | undefined) => {
      const result = compareWith(field, operator, value)
      if (typeof result === 'string') throw new ExpressionError(result)
      return result
    }
    const field = left.t === 'var' ? this.ref(left)?.survey : undefined
    if (field) {
      if (right.t === 'array') {
        const items = right.items.map(literalOf)
        return items.every((item) => item !== undefined) ? exact(field, op, items as Lit[]) : undefined
      }
      const value = literalOf(right)
      return value === undefined ? undefined : exact(field, op, value)
    }
    // A literal on the left of = or <> compares the same way.
    const mirrored = right.t === 'var' ? this.ref(right)?.survey : undefined
    const value = literalOf(left)
    if (mirrored && value !== undefined && (op === '==' || op === '!=')) return exact(mirrored, op, value)
    return undefined
  }

  /** anyof / allof / noneof: a question against a list of values. */
  membership(op: string, left: Node, right: Node): Js {
    const ref = this.ref(left)
    if (!ref) throw new ExpressionError(`"${op}" needs a question on its left`)
    const values = right.t === 'array' ? right.items.map((item) => this.value(item)) : [this.value(right)]
    if (op === 'allof') {
      if (ref.kind !== 'multi') throw new ExpressionError('"allof" needs a question with several choices')
      return and(values.map((v) => method(ref.js, 'includes', [v]))) ?? literal(true)
    }
    const any = holdsAny(ref, values)
    return op === 'anyof' ? any : not(any)
  }

  call(name: string, args: Node[]): Js {
    if (!FUNCTIONS.has(name)) throw new ExpressionError(`the function ${name}() has no translation`)
    const values = args.map((arg) => this.value(arg))
    switch (name) {
      case 'iif':
        if (values.length !== 3) throw new ExpressionError('iif takes three arguments')
        return ternary(values[0]!, values[1]!, values[2]!)
      case 'sum':
        return values.length === 0 ? literal(0) : values.reduce((acc, v) => binary('+', acc, v))
      case 'min':
      case 'max':
      case 'abs':
        return call(`Math.${name}`, values)
      case 'round':
        if (values.length !== 1) throw new ExpressionError('round with decimals has no translation')
        return call('Math.round', values)
      default:
        throw new ExpressionError(`the function ${name}() has no translation`)
    }
  }
}

/** JavaScript for a SurveyJS expression, or the reason it cannot be translated. */
export function translateSurveyExpression(source: string, resolve: Resolve): Js | string {
  try {
    return new Emitter(resolve).value(parseSurveyExpression(source))
  } catch (error) {
    if (error instanceof ExpressionError) return error.message
    throw error
  }
}
