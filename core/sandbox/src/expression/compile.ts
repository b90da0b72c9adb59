/**
 * The pure-expression interpreter's compiler (issue 23): a script the sandbox compiles as an expression
 * (analyze.ts, the same parse and nesting limits) becomes a checked tree, or is refused with a reason and
 * left to QuickJS. The subset: literals, variables (and undefined, NaN, Infinity), template literals,
 * array literals, unary ! - + typeof, arithmetic without `**`, comparisons and equality, && || ??, the
 * conditional, member access, and calls to an allow-list of pure built-ins and of the sandbox's own
 * formatting helpers (evaluate.ts). No assignment,
 * no function, no `new`, no `this`, no loop can be written in it, and its size is bounded: it cannot
 * hang the page or reach anything but the values.
 */
import { prepareTree } from '../analyze.ts'

export type Tree = { type: string; [key: string]: any }

/** Nodes a compiled expression may hold: its time and the strings it builds are bounded by it. */
export const MAX_NODES = 2000

const UNARY = new Set(['!', '-', '+', 'typeof'])
/**
 * `**` is left out: its result is implementation-approximated (ECMA-262 §6.1.6.1.3), so QuickJS's and
 * the browser's may differ in the last bit. Bitwise, `in` and `instanceof` are outside the subset.
 */
const BINARY = new Set(['+', '-', '*', '/', '%', '==', '!=', '===', '!==', '<', '<=', '>', '>='])
const LOGICAL = new Set(['&&', '||', '??'])
/** Names a member access never reads (prototype plumbing). */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__lookupGetter__'])
/** Global functions callable by name; Math's through `Math.name` (evaluate.ts holds the functions). */
export const GLOBAL_CALLS = new Set(['Number', 'String', 'Boolean', 'parseInt', 'parseFloat', 'isNaN', 'isFinite'])
/** The sandbox's formatting helpers: the same host functions QuickJS calls (host-api.ts). */
export const HOST_CALLS = new Set(['formatNumber', 'formatMoney', 'formatDate'])
export const MATH_CALLS = new Set(['abs', 'floor', 'ceil', 'round', 'trunc', 'sign', 'min', 'max', 'sqrt'])
const CONSTANTS = new Set(['undefined', 'NaN', 'Infinity'])

export interface CompiledTree {
  tree: Tree
  /** The free names the sandbox makes parameters: each must be a variable, or the call fails first. */
  params: string[]
}

export class Refused extends Error {}

export function compileTree(source: string): CompiledTree | { refused: string } {
  const { prepared, fn } = prepareTree(source)
  if ('error' in prepared) return { refused: prepared.error }
  if (prepared.form !== 'expression') return { refused: 'statements' }
  // The text QuickJS compiles (wrapScript), as the analysis parsed it: its one `return`'s argument.
  const expression = (fn as Tree).body.body[1].argument as Tree
  let nodes = 0
  const check = (node: Tree): void => {
    if (++nodes > MAX_NODES) throw new Refused(`more than ${MAX_NODES} nodes`)
    switch (node.type) {
      case 'Literal':
        if (node.regex || typeof node.value === 'bigint') throw new Refused('a regular expression or BigInt')
        return
      case 'Identifier':
        // Globals (Math, Date, value, ...) are values the subset has no use for.
        if (!isVariableOrConstant(node.name, prepared.params)) throw new Refused(`the global ${node.name}`)
        return
      case 'TemplateLiteral':
        return node.expressions.forEach(check)
      case 'ArrayExpression':
        for (const element of node.elements) {
          if (!element || element.type === 'SpreadElement') throw new Refused('a hole or spread in an array')
          check(element)
        }
        return
      case 'UnaryExpression':
        if (!UNARY.has(node.operator)) throw new Refused(`the operator ${node.operator}`)
        return check(node.argument)
      case 'BinaryExpression':
        if (!BINARY.has(node.operator)) throw new Refused(`the operator ${node.operator}`)
        check(node.left)
        return check(node.right)
      case 'LogicalExpression':
        if (!LOGICAL.has(node.operator)) throw new Refused(`the operator ${node.operator}`)
        check(node.left)
        return check(node.right)
      case 'ConditionalExpression':
        check(node.test)
        check(node.consequent)
        return check(node.alternate)
      case 'MemberExpression':
        if (node.optional) throw new Refused('optional chaining')
        if (FORBIDDEN_KEYS.has(node.computed ? String(node.property.value) : node.property.name)) {
          throw new Refused('a prototype key')
        }
        check(node.object)
        if (node.computed) check(node.property)
        return
      case 'CallExpression':
        if (node.optional) throw new Refused('optional chaining')
        checkCallee(node.callee)
        for (const arg of node.arguments) {
          if (arg.type === 'SpreadElement') throw new Refused('a spread argument')
          check(arg)
        }
        return
      case 'ParenthesizedExpression':
        return check(node.expression)
      default:
        throw new Refused(node.type)
    }
  }
  const checkCallee = (callee: Tree) => {
    if (callee.type === 'Identifier') {
      if (callee.name === 'value' || GLOBAL_CALLS.has(callee.name) || HOST_CALLS.has(callee.name)) return
      throw new Refused(`a call to ${callee.name}`)
    }
    if (callee.type !== 'MemberExpression' || callee.optional) throw new Refused('a call of a computed function')
    if (callee.object.type === 'Identifier' && callee.object.name === 'Math') {
      if (!callee.computed && MATH_CALLS.has(callee.property.name)) return
      throw new Refused('a Math function outside the list')
    }
    // A method of the value: which ones is checked when it runs (evaluate.ts), against the real functions.
    if (callee.computed) throw new Refused('a method by a computed name')
    if (FORBIDDEN_KEYS.has(callee.property.name)) throw new Refused(`.${callee.property.name}`)
    check(callee.object)
  }
  try {
    check(expression)
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message }
    throw error
  }
  return { tree: expression, params: prepared.params }
}

/** A name read as a value: one of the script's variables, or undefined, NaN, Infinity. */
export function isVariableOrConstant(name: string, params: readonly string[]): boolean {
  return CONSTANTS.has(name) || params.includes(name)
}
