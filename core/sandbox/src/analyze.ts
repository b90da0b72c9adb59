/**
 * Static reading of a script with acorn: which form it compiles as (expression or function body),
 * and which free names it uses. The form contract uses the names as the script's dependencies; the
 * sandbox makes them the compiled function's parameters. Both read the same wrapped text QuickJS
 * compiles, so analysis and execution agree.
 */
import { parse } from 'acorn'
import { keptFor } from './cache.ts'
import { SANDBOX_GLOBALS } from './globals.ts'

export type ScriptForm = 'expression' | 'body'

export interface PreparedScript {
  form: ScriptForm
  /** Free names the script reads (its dependencies), then the literal names of `value('...')` calls. */
  names: string[]
  /** Free names read or written: the compiled function's parameters. */
  params: string[]
}

export type Preparation = PreparedScript | { error: string }

const HEAD = '(function ('
const STRICT = ') { "use strict"; '
const WRAP: Record<ScriptForm, [string, string]> = {
  expression: ['return (', '\n) })'],
  body: ['', '\n})'],
}

/** The text QuickJS compiles: a strict function of the free names, the source inside it. */
export function wrapScript(source: string, form: ScriptForm, params: readonly string[] = []): string {
  const [before, after] = WRAP[form]
  return `${HEAD}${params.join(', ')}${STRICT}${before}${source}${after}`
}

/** Free identifiers the script reads plus `value('...')` literals; `error` when it does not parse. */
export function analyzeScript(source: string, extraGlobals?: Iterable<string>): { names: string[]; error?: string } {
  const prepared = prepareScript(source, extraGlobals)
  // A copy: the preparation is shared (prepareTree).
  return 'error' in prepared ? { names: [], error: prepared.error } : { names: [...prepared.names] }
}

/**
 * Nesting limits. QuickJS's parser and this analysis recurse per level, and some of QuickJS's
 * recursion uses far more native stack than its own stack check counts: 800 nested parentheses
 * exhaust a 1 MB native stack whatever the QuickJS stack limit.
 */
const MAX_BRACKETS = 100
const MAX_DEPTH = 1000
const TOO_DEEP = 'SyntaxError: the script nests too deeply'

export function prepareScript(source: string, extraGlobals?: Iterable<string>): Preparation {
  return extraGlobals ? prepare(source, extraGlobals).prepared : prepareTree(source).prepared
}

/** A script's preparation and, when it parsed, its wrapper function's tree (read-only: it is shared). */
export interface PreparedTree {
  prepared: Preparation
  fn?: Node
}

/**
 * The last scripts prepared without extra globals, with their trees: a form's scripts are read by the
 * graph (which names each reads) and then compiled by the interpreter, and acorn parsing them once
 * instead of twice is most of a form's first evaluation on a cold page.
 */
export const prepareTree: (source: string) => PreparedTree = keptFor(1000, (source) => prepare(source))

function prepare(source: string, extraGlobals?: Iterable<string>): PreparedTree {
  const globals = extraGlobals ? new Set([...SANDBOX_GLOBALS, ...extraGlobals]) : SANDBOX_GLOBALS
  let failure = ''
  for (const form of ['expression', 'body'] as const) {
    const text = wrapScript(source, form)
    const offset = text.length - source.length - WRAP[form][1].length
    let fn: Node
    try {
      const program = parse(text, { ecmaVersion: 'latest', sourceType: 'script', onToken: bracketCounter() })
      fn = wrapperFunction(program as unknown as Node, text, form)
    } catch (error) {
      failure = syntaxMessage(error, source, offset)
      continue
    }
    try {
      return { prepared: { form, ...freeNames(fn, globals) }, fn }
    } catch (error) {
      if (error instanceof RangeError) return { prepared: { error: TOO_DEEP } }
      throw error
    }
  }
  return { prepared: { error: failure } }
}

function bracketCounter(): (token: { type: { label: string }; start: number }) => void {
  let depth = 0
  return ({ type, start }) => {
    if (type.label === '(' || type.label === '[' || type.label === '{' || type.label === '${') {
      if (++depth > MAX_BRACKETS + 2)
        throw Object.assign(new SyntaxError(`brackets nest more than ${MAX_BRACKETS} deep`), { pos: start })
    } else if (type.label === ')' || type.label === ']' || type.label === '}') depth--
  }
}

// ── parse checks ──────────────────────────────────────────────────────────────────────────────

export type Node = { type: string; start: number; end: number; [key: string]: any }

/** The wrapper function, or a throw if the source closed it early and put code beside it. */
function wrapperFunction(program: Node, text: string, form: ScriptForm): Node {
  const stmt = program.body.length === 1 ? program.body[0] : undefined
  const fn = stmt?.type === 'ExpressionStatement' ? stmt.expression : undefined
  const whole = fn?.type === 'FunctionExpression' && fn.start === 1 && fn.end === text.length - 1
  // In expression form the body must still be the directive and the one `return`.
  const single = whole && (form === 'body' || (fn.body.body.length === 2 && fn.body.body[1].type === 'ReturnStatement'))
  if (!single) throw Object.assign(new SyntaxError('Unexpected token'), { pos: text.length - 1 })
  return fn
}

function syntaxMessage(error: unknown, source: string, offset: number): string {
  if (!(error instanceof SyntaxError)) throw error
  const at = Math.min(Math.max(((error as { pos?: number }).pos ?? 0) - offset, 0), source.length)
  const before = source.slice(0, at).split('\n')
  const where = `${before.length}:${before.at(-1)!.length}`
  return `SyntaxError: ${error.message.replace(/ \(\d+:\d+\)$/, '')} (${where})`
}

// ── scopes ────────────────────────────────────────────────────────────────────────────────────

interface Scope {
  parent: Scope | null
  /** Function scopes take `var`; block scopes take `let`, `const`, `class` and (strict) functions. */
  fn: boolean
  declared: Set<string>
}

interface Reference {
  name: string
  scope: Scope
  read: boolean
}

function freeNames(wrapper: Node, globals: ReadonlySet<string>): { names: string[]; params: string[] } {
  const refs: Reference[] = []
  const valueCalls: { literal: string; scope: Scope }[] = []
  const scope = (parent: Scope | null, fn = false): Scope => ({ parent, fn, declared: new Set() })
  const fnScope = (s: Scope) => {
    while (!s.fn) s = s.parent!
    return s
  }
  const declaredIn = (name: string, s: Scope | null) => {
    for (; s; s = s.parent) if (s.declared.has(name)) return true
    return false
  }

  /**
   * Walks a binding or assignment pattern: each identifier it binds goes to `bind`; defaults, computed
   * keys and member-expression targets are expressions read in `s`.
   */
  function pattern(node: Node | null, s: Scope, bind: (name: string) => void): void {
    if (!node) return
    switch (node.type) {
      case 'Identifier':
        bind(node.name)
        return
      case 'ObjectPattern':
        for (const p of node.properties) {
          if (p.type === 'RestElement') pattern(p.argument, s, bind)
          else {
            if (p.computed) visit(p.key, s)
            pattern(p.value, s, bind)
          }
        }
        return
      case 'ArrayPattern':
        for (const e of node.elements) pattern(e, s, bind)
        return
      case 'RestElement':
        pattern(node.argument, s, bind)
        return
      case 'AssignmentPattern':
        pattern(node.left, s, bind)
        visit(node.right, s)
        return
      default:
        visit(node, s)
    }
  }

  /** Names a pattern declares in `target`; its defaults and computed keys are expressions of `exprScope`. */
  function declare(node: Node | null, target: Scope, exprScope: Scope): void {
    pattern(node, exprScope, (name) => target.declared.add(name))
  }

  /** An assignment target: identifiers are written (and read too for `+=` and the like). */
  function assign(target: Node | null, s: Scope, read: boolean): void {
    if (target?.type === 'Identifier') refs.push({ name: target.name, scope: s, read })
    else pattern(target, s, (name) => refs.push({ name, scope: s, read: false }))
  }

  function fn(node: Node, outer: Scope): void {
    let s = outer
    if (node.type === 'FunctionExpression' && node.id) {
      s = scope(outer)
      s.declared.add(node.id.name)
    }
    const inner = scope(s, true)
    if (node.type !== 'ArrowFunctionExpression') inner.declared.add('arguments')
    for (const p of node.params) declare(p, inner, inner)
    if (node.body.type === 'BlockStatement') for (const st of node.body.body) visit(st, inner)
    else visit(node.body, inner)
  }

  function klass(node: Node, outer: Scope): void {
    if (node.superClass) visit(node.superClass, outer)
    const s = scope(outer)
    if (node.id) s.declared.add(node.id.name)
    for (const member of node.body.body) {
      if (member.type === 'StaticBlock') {
        const block = scope(s, true)
        for (const st of member.body) visit(st, block)
        continue
      }
      if (member.computed) visit(member.key, s)
      if (member.value) visit(member.value, scope(s, true))
    }
  }

  let depth = 0
  function visit(node: Node | null, s: Scope): void {
    if (!node) return
    if (++depth > MAX_DEPTH) throw new RangeError(TOO_DEEP)
    try {
      visitNode(node, s)
    } finally {
      depth--
    }
  }

  function visitNode(node: Node, s: Scope): void {
    switch (node.type) {
      case 'Identifier':
        refs.push({ name: node.name, scope: s, read: true })
        return
      case 'Literal':
      case 'ThisExpression':
      case 'Super':
      case 'MetaProperty':
      case 'PrivateIdentifier':
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'DebuggerStatement':
      case 'EmptyStatement':
        return
      case 'VariableDeclaration': {
        const target = node.kind === 'var' ? fnScope(s) : s
        for (const d of node.declarations) {
          declare(d.id, target, s)
          visit(d.init, s)
        }
        return
      }
      case 'FunctionDeclaration':
        s.declared.add(node.id.name)
        fn(node, s)
        return
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        fn(node, s)
        return
      case 'ClassDeclaration':
        s.declared.add(node.id.name)
        klass(node, s)
        return
      case 'ClassExpression':
        klass(node, s)
        return
      case 'BlockStatement': {
        const block = scope(s)
        for (const st of node.body) visit(st, block)
        return
      }
      case 'ForStatement': {
        const loop = scope(s)
        visit(node.init, loop)
        visit(node.test, loop)
        visit(node.update, loop)
        visit(node.body, loop)
        return
      }
      case 'ForInStatement':
      case 'ForOfStatement': {
        const loop = scope(s)
        if (node.left.type === 'VariableDeclaration') visit(node.left, loop)
        else assign(node.left, loop, false)
        visit(node.right, loop)
        visit(node.body, loop)
        return
      }
      case 'CatchClause': {
        const c = scope(s)
        declare(node.param, c, c)
        visit(node.body, c)
        return
      }
      case 'SwitchStatement': {
        visit(node.discriminant, s)
        const cases = scope(s)
        for (const c of node.cases) {
          visit(c.test, cases)
          for (const st of c.consequent) visit(st, cases)
        }
        return
      }
      case 'LabeledStatement':
        visit(node.body, s)
        return
      case 'BinaryExpression':
      case 'LogicalExpression': {
        // A long chain (a + b + c ...) is left-deep: walk its spine in a loop, in source order.
        const rights: Node[] = []
        let left = node
        for (; left.type === 'BinaryExpression' || left.type === 'LogicalExpression'; left = left.left) {
          rights.push(left.right)
        }
        visit(left, s)
        for (let i = rights.length - 1; i >= 0; i--) visit(rights[i]!, s)
        return
      }
      case 'MemberExpression':
        visit(node.object, s)
        if (node.computed) visit(node.property, s)
        return
      case 'Property':
        if (node.computed) visit(node.key, s)
        visit(node.value, s)
        return
      case 'AssignmentExpression':
        assign(node.left, s, node.operator !== '=')
        visit(node.right, s)
        return
      case 'UpdateExpression':
        assign(node.argument, s, true)
        return
      case 'CallExpression':
        if (node.callee.type === 'Identifier' && node.callee.name === 'value') {
          const [arg] = node.arguments
          if (arg?.type === 'Literal' && typeof arg.value === 'string')
            valueCalls.push({ literal: arg.value, scope: s })
        }
        break
    }
    for (const key in node) {
      const child = node[key]
      for (const c of Array.isArray(child) ? child : [child]) if (isNode(c)) visit(c, s)
    }
  }

  const top = scope(null, true)
  fn(wrapper, top)

  const names = new Set<string>()
  const params = new Set<string>()
  for (const ref of refs) {
    if (globals.has(ref.name) || declaredIn(ref.name, ref.scope)) continue
    params.add(ref.name)
    if (ref.read) names.add(ref.name)
  }
  for (const call of valueCalls) if (!declaredIn('value', call.scope)) names.add(call.literal)
  return { names: [...names], params: [...params] }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'
}
