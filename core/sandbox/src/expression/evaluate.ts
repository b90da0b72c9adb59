/**
 * Evaluates a compiled expression (compile.ts) over JSON variables, with JavaScript's own semantics: the
 * operators and built-ins are the host engine's, applied to the same primitive values and frozen JSON data
 * QuickJS would see, which has no code of its own to run (no valueOf, no getters). What the interpreter
 * cannot answer exactly it leaves to QuickJS: a runtime error (QuickJS words its message), a method
 * outside the list, a function as a value. The only failure it words itself is a missing variable.
 */
import { failure, variableNotFound } from '../errors.ts'
import type { Json, ScriptResult } from '../types.ts'
import { BUILTIN_HOST } from '../host-api.ts'
import { FORBIDDEN_KEYS, GLOBAL_CALLS, HOST_CALLS, MATH_CALLS, type CompiledTree, type Tree } from './compile.ts'

/** QuickJS answers instead (see above). */
class LeaveToQuickJS extends Error {}

/**
 * The most text one value may stand for (characters, arrays as their join). QuickJS caps a script's
 * memory; on the page nothing would stop `a + a + …` over a long value or a join of many, so any operand
 * or result past this is left to QuickJS, which runs them under its limit.
 */
export const MAX_TEXT = 1_000_000

/** The length of a value's text (what ToString would build), stopping once past MAX_TEXT. */
function textSize(value: unknown, budget = MAX_TEXT): number {
  if (typeof value === 'string') return value.length
  if (Array.isArray(value)) {
    let size = Math.max(0, value.length - 1)
    for (const element of value) {
      if (size > budget) break
      size += element === null || element === undefined ? 0 : textSize(element, budget - size)
    }
    return size
  }
  return typeof value === 'object' && value !== null ? 15 : 24
}

/** `value` itself, unless its text is too large for the page (see MAX_TEXT). */
function bounded<T>(value: T): T {
  if ((typeof value === 'string' || Array.isArray(value)) && textSize(value) > MAX_TEXT) throw new LeaveToQuickJS()
  return value
}

const GLOBALS: Record<string, (...args: any[]) => unknown> = {
  Number,
  String,
  Boolean,
  parseInt: exactParseInt,
  parseFloat,
  isNaN,
  isFinite,
}
/**
 * Past 2^53 this engine's parseInt may round differently from QuickJS's in radixes other than powers of
 * two and 10 (measured in Node 24: 858 of 3,000 long strings in radix 13): such a result is QuickJS's.
 */
function exactParseInt(text: unknown, radix?: unknown): number {
  const n = parseInt(text as string, radix as number)
  if (Math.abs(n) > Number.MAX_SAFE_INTEGER) throw new LeaveToQuickJS()
  return n
}
const MATH = Object.fromEntries([...MATH_CALLS].map((name) => [name, (Math as any)[name]]))
for (const name of GLOBAL_CALLS) if (!GLOBALS[name]) throw new Error(`no global ${name}`)

/**
 * Methods a value may call, by the function itself: pure, bounded by their input (repeat, padStart and
 * padEnd could build huge strings; they are not here), no callbacks.
 */
const METHODS = new Set<unknown>([
  ...['trim', 'trimStart', 'trimEnd', 'toUpperCase', 'toLowerCase', 'includes', 'startsWith', 'endsWith']
    .concat(['indexOf', 'lastIndexOf', 'slice', 'substring', 'charAt', 'split', 'at'])
    .map((name) => (String.prototype as any)[name]),
  ...['includes', 'indexOf', 'lastIndexOf', 'join', 'slice', 'at'].map((name) => (Array.prototype as any)[name]),
  Number.prototype.toFixed,
])

/** A variable as the script sees it (read once per call: an object keeps its identity, `a == a`). */
type Vars = { has(name: string): boolean; read(name: string): unknown }

function evaluate(node: Tree, vars: Vars): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value
    case 'Identifier':
      if (node.name === 'undefined') return undefined
      if (node.name === 'NaN') return NaN
      if (node.name === 'Infinity') return Infinity
      return vars.read(node.name)
    case 'TemplateLiteral': {
      let text = node.quasis[0].value.cooked as string
      node.expressions.forEach((e: Tree, i: number) => {
        const part = bounded(evaluate(e, vars))
        if (typeof part === 'symbol') throw new LeaveToQuickJS()
        text = bounded(`${text}${part as string}${node.quasis[i + 1].value.cooked as string}`)
      })
      return text
    }
    case 'ArrayExpression':
      return bounded(node.elements.map((e: Tree) => evaluate(e, vars)))
    case 'UnaryExpression': {
      const v = bounded(evaluate(node.argument, vars)) as any
      switch (node.operator) {
        case '!':
          return !v
        case '-':
          return -v
        case '+':
          return +v
        default:
          return typeof v
      }
    }
    case 'BinaryExpression': {
      const a = bounded(evaluate(node.left, vars)) as any
      const b = bounded(evaluate(node.right, vars)) as any
      switch (node.operator) {
        case '+':
          return bounded(a + b)
        case '-':
          return a - b
        case '*':
          return a * b
        case '/':
          return a / b
        case '%':
          return a % b
        case '==':
          return a == b
        case '!=':
          return a != b
        case '===':
          return a === b
        case '!==':
          return a !== b
        case '<':
          return a < b
        case '<=':
          return a <= b
        case '>':
          return a > b
        default:
          return a >= b
      }
    }
    case 'LogicalExpression': {
      const a = evaluate(node.left, vars) as any
      if (node.operator === '&&') return a && evaluate(node.right, vars)
      if (node.operator === '||') return a || evaluate(node.right, vars)
      return a ?? evaluate(node.right, vars)
    }
    case 'ConditionalExpression':
      return evaluate(node.test, vars) ? evaluate(node.consequent, vars) : evaluate(node.alternate, vars)
    case 'MemberExpression': {
      // Only what the value itself holds (a JSON key, an index, a length): anything inherited is the
      // engine's, and this browser's prototypes need not be QuickJS's (an older one lacks toSorted).
      const { object, name, value } = member(node, vars)
      if (!Object.hasOwn(Object(object), name) || typeof value === 'function') throw new LeaveToQuickJS()
      return value
    }
    case 'CallExpression':
      return call(node, vars)
    default:
      throw new LeaveToQuickJS()
  }
}

/** A property of a value (a string's, an array's, a JSON object's, a number's): read as JavaScript reads it. */
function member(node: Tree, vars: Vars): { object: unknown; name: string; value: unknown } {
  const object = evaluate(node.object, vars)
  // Reading a property of null or undefined is a TypeError: QuickJS words it.
  if (object === null || object === undefined) throw new LeaveToQuickJS()
  const key = node.computed ? evaluate(node.property, vars) : (node.property.name as string)
  if (typeof key === 'object' && key !== null) throw new LeaveToQuickJS()
  const name = String(key)
  if (FORBIDDEN_KEYS.has(name)) throw new LeaveToQuickJS()
  return { object, name, value: (Object(object) as Record<string, unknown>)[name] }
}

function call(node: Tree, vars: Vars): unknown {
  const args = () => node.arguments.map((a: Tree) => bounded(evaluate(a, vars)))
  const callee = node.callee as Tree
  if (callee.type === 'Identifier') {
    // The host helpers get and give JSON, as across the sandbox's bridge (host-api.ts hostBridge).
    if (HOST_CALLS.has(callee.name)) {
      const answer = BUILTIN_HOST[callee.name]!(...(JSON.parse(JSON.stringify(args())) as Json[]))
      return bounded(JSON.parse(JSON.stringify(answer ?? null)))
    }
    if (callee.name !== 'value') return bounded(GLOBALS[callee.name]!(...args()))
    const [name] = args()
    if (typeof name !== 'string' || !vars.has(name)) throw new LeaveToQuickJS()
    return vars.read(name)
  }
  if (callee.object.type === 'Identifier' && callee.object.name === 'Math') {
    return MATH[callee.property.name]!(...args())
  }
  const { object, value } = member(callee, vars)
  if (!METHODS.has(value)) throw new LeaveToQuickJS()
  const given = args()
  // A join repeats its separator between the elements: bounded before it is built.
  if (value === Array.prototype.join && Array.isArray(object)) {
    const separator = given[0] === undefined ? 1 : textSize(given[0])
    if (textSize(object) + Math.max(0, object.length - 1) * separator > MAX_TEXT) throw new LeaveToQuickJS()
  }
  return bounded((value as (...a: unknown[]) => unknown).apply(bounded(object), given))
}

/**
 * A variable as it reaches QuickJS, through JSON: -0 is 0, and a number JSON cannot hold is null. Data of
 * the form's store may hold them (Number('-0')).
 */
function crossed(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? (value === 0 ? 0 : value) : null
  if (typeof value === 'object' && value !== null) {
    const text = JSON.stringify(value)
    if (text.length > MAX_TEXT) throw new LeaveToQuickJS()
    return JSON.parse(text)
  }
  return bounded(value)
}

/** The result as the sandbox sends it back: through JSON (undefined, NaN and ±Infinity become null, -0 is 0). */
function asJson(value: unknown): Json {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json)
}

/**
 * The expression's result, or null when QuickJS is to answer. A missing variable fails the call before
 * anything runs, as the sandbox does (its parameters are looked up first).
 */
export function runTree(compiled: CompiledTree, vars: Record<string, Json>): ScriptResult | null {
  // JSON leaves an undefined value out, so QuickJS finds no such variable (a field whose type gives no
  // default holds undefined in the form's store).
  const has = (name: string) => Object.hasOwn(vars, name) && vars[name] !== undefined
  for (const name of compiled.params) {
    if (!has(name)) return failure('SCRIPT_ERROR', variableNotFound(name))
  }
  const seen = new Map<string, unknown>()
  const scope: Vars = {
    has,
    read(name) {
      if (!seen.has(name)) seen.set(name, crossed(vars[name]))
      return seen.get(name)
    },
  }
  try {
    return { ok: true, value: asJson(evaluate(compiled.tree, scope)), effects: [] }
  } catch (error) {
    if (error instanceof LeaveToQuickJS || error instanceof Error) return null
    throw error
  }
}
