import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

/**
 * What a route's handler reads from its request, found in its source: the core's input helpers
 * (lib/input.ts), `ctx.request.input/file/files`, compiled VineJS validators, and for plugin routes
 * the PluginRequest's `field/json/file/files`. Reads made inside imported helpers cannot be seen
 * from here: they are reported in `hidden`, so the document can list the route as undescribed.
 */
export interface InputRead {
  name: string
  kind: 'text' | 'bool' | 'json' | 'id' | 'any' | 'file' | 'files'
  required: boolean
  maxLength?: number
}

export interface HandlerInputs {
  reads: InputRead[]
  /** Names of compiled VineJS validators applied to the body (exports of app/validators/*). */
  validators: { module: string; name: string }[]
  /** Why the reads may be incomplete (a helper that gets the request, a whole-body read). */
  hidden: string[]
}

const HELPERS: Record<string, InputRead['kind']> = {
  field: 'text',
  optionalField: 'text',
  boolField: 'bool',
  jsonField: 'json',
  idValue: 'id',
}

/** Calls that take the request but read nothing a caller sends as a field (auth, envelope, texts). */
const NOT_INPUT = new Set([
  'message',
  'languageOf',
  'done',
  'fail',
  'auditRequest',
  'rateLimit',
  'headerValue',
  'principal',
  'principalOf',
  'jsonRefusal',
  'jsonText',
  'queueSecurityNotice',
  'requirePasswordPolicy',
])

const sources = new Map<string, ts.SourceFile>()

function sourceOf(file: string): ts.SourceFile {
  let source = sources.get(file)
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    sources.set(file, source)
  }
  return source
}

function literal(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined
}

/** The `{ max, required }` options of field(ctx, name, opts). */
function fieldOptions(node: ts.Node | undefined): { max?: number; required?: boolean } {
  const out: { max?: number; required?: boolean } = {}
  if (!node || !ts.isObjectLiteralExpression(node)) return out
  for (const prop of node.properties) {
    if (!ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.name)) continue
    if (prop.name.text === 'max' && ts.isNumericLiteral(prop.initializer)) out.max = Number(prop.initializer.text)
    if (prop.name.text === 'required') out.required = prop.initializer.kind !== ts.SyntaxKind.FalseKeyword
  }
  return out
}

/** The reads of one controller method, following `this.helper(...)` and the file's own functions. */
export function controllerInputs(file: string, className: string | null, method: string): HandlerInputs {
  const source = sourceOf(file)
  const methods = new Map<string, ts.FunctionLikeDeclaration>()
  const functions = new Map<string, ts.FunctionLikeDeclaration>()
  const imports = new Map<string, string>()
  for (const statement of source.statements) {
    if (
      ts.isClassDeclaration(statement) &&
      (className === null || statement.name?.text === className || !statement.name)
    ) {
      for (const member of statement.members) {
        if (ts.isMethodDeclaration(member) && member.name && ts.isIdentifier(member.name))
          methods.set(member.name.text, member)
      }
    }
    if (ts.isFunctionDeclaration(statement) && statement.name) functions.set(statement.name.text, statement)
    if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        if (ts.isIdentifier(decl.name) && decl.initializer && ts.isArrowFunction(decl.initializer)) {
          functions.set(decl.name.text, decl.initializer)
        }
      }
    }
    if (
      ts.isImportDeclaration(statement) &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings)
    ) {
      for (const spec of statement.importClause.namedBindings.elements) {
        imports.set(spec.name.text, (statement.moduleSpecifier as ts.StringLiteral).text)
      }
    }
  }
  const out: HandlerInputs = { reads: [], validators: [], hidden: [] }
  const seen = new Set<string>()
  /** A helper's parameters bound to the string literals it was called with (`this.submission(ctx, 'flow_values')`). */
  let bound = new Map<string, string>()
  const visitBody = (fn: ts.FunctionLikeDeclaration | undefined, call?: ts.CallExpression) => {
    if (!fn) return
    const bindings = new Map<string, string>()
    fn.parameters.forEach((p, i) => {
      const value = literal(call?.arguments[i])
      if (ts.isIdentifier(p.name) && value !== undefined) bindings.set(p.name.text, value)
    })
    const key = `${fn.pos}:${JSON.stringify([...bindings])}`
    if (seen.has(key)) return
    seen.add(key)
    const outer = bound
    bound = bindings
    const walk = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) readCall(node)
      ts.forEachChild(node, walk)
    }
    if (fn.body) walk(fn.body)
    bound = outer
  }
  /** A field name: a literal, or a parameter bound to one. */
  const nameOf = (node: ts.Node | undefined) =>
    literal(node) ?? (node && ts.isIdentifier(node) ? bound.get(node.text) : undefined)
  const passesRequest = (call: ts.CallExpression) =>
    call.arguments.some((a) => ts.isIdentifier(a) && (a.text === 'ctx' || a.text === 'request'))
  const readCall = (call: ts.CallExpression) => {
    const callee = call.expression
    if (ts.isIdentifier(callee)) {
      const name = callee.text
      const kind = HELPERS[name]
      if (kind && imports.get(name) === '#lib/input') {
        if (kind === 'id') {
          const value = call.arguments[1]
          const label = nameOf(call.arguments[2]) ?? 'id'
          // idValue(ctx, ctx.params.id): a path parameter, described by the route's pattern.
          if (value && ts.isPropertyAccessExpression(value) && value.expression.getText().endsWith('params')) return
          out.reads.push({ name: label, kind: 'id', required: true })
          return
        }
        const fieldName = nameOf(call.arguments[1])
        if (!fieldName) return void out.hidden.push(`${name}() with a computed field name`)
        if (name === 'field') {
          const opts = fieldOptions(call.arguments[2])
          out.reads.push({ name: fieldName, kind, required: opts.required !== false, maxLength: opts.max ?? 1000 })
        } else if (name === 'optionalField') {
          const max =
            call.arguments[2] && ts.isNumericLiteral(call.arguments[2]) ? Number(call.arguments[2].text) : 1000
          out.reads.push({ name: fieldName, kind, required: false, maxLength: max })
        } else if (name === 'jsonField') {
          out.reads.push({ name: fieldName, kind, required: call.arguments[2]?.kind === ts.SyntaxKind.TrueKeyword })
        } else out.reads.push({ name: fieldName, kind, required: true })
        return
      }
      if (functions.has(name)) return visitBody(functions.get(name), call)
      if (passesRequest(call) && !NOT_INPUT.has(name) && !imports.get(name)?.startsWith('#lib/input')) {
        out.hidden.push(`${name}(ctx)`)
      }
      return
    }
    if (!ts.isPropertyAccessExpression(callee)) return
    const method = callee.name.text
    const target = callee.expression.getText()
    if (target === 'this' && methods.has(method)) return visitBody(methods.get(method), call)
    if (target.endsWith('request') && ['input', 'file', 'files', 'all', 'body', 'only', 'qs'].includes(method)) {
      const fieldName = nameOf(call.arguments[0])
      if (method === 'input' && fieldName) out.reads.push({ name: fieldName, kind: 'any', required: false })
      else if ((method === 'file' || method === 'files') && fieldName) {
        out.reads.push({ name: fieldName, kind: method, required: false })
      } else if (method === 'input') out.hidden.push('request.input() with a computed name')
      else if (!isValidated(call)) out.hidden.push(`request.${method}()`)
      return
    }
    if (method === 'validate' && ts.isIdentifier(callee.expression)) {
      const module = imports.get(callee.expression.text)
      if (module?.startsWith('#validators/')) out.validators.push({ module, name: callee.expression.text })
      return
    }
    if (passesRequest(call) && target !== 'this' && !NOT_INPUT.has(method)) out.hidden.push(`${target}.${method}(ctx)`)
  }
  /** `validator.validate(ctx.request.all())`: the whole body goes through a described validator. */
  const isValidated = (call: ts.CallExpression) => {
    const parent = call.parent
    return (
      ts.isCallExpression(parent) &&
      ts.isPropertyAccessExpression(parent.expression) &&
      parent.expression.name.text === 'validate'
    )
  }
  const entry = methods.get(method)
  if (!entry) out.hidden.push(`method ${method} not found in ${file}`)
  visitBody(entry)
  // The whole body read to hand to a described validator (users_controller's userBody) hides nothing.
  if (out.validators.length > 0) out.hidden = out.hidden.filter((h) => h !== 'request.all()')
  out.hidden = [...new Set(out.hidden)].sort()
  return out
}

/** `x.field('name')`-style reads on the request parameter `param` of a function's text. */
function requestReads(text: string, param: string): InputRead[] {
  const esc = param.replace(/\$/g, '\\$')
  const reads = new RegExp(`\\b${esc}\\.(field|json|file|files)\\(\\s*(['"\`])([\\w.\\[\\]-]+)\\2`, 'g')
  return [...text.matchAll(reads)].map((m) => ({
    name: m[3],
    kind: m[1] === 'field' ? 'text' : m[1] === 'json' ? 'json' : (m[1] as 'file' | 'files'),
    required: false,
  }))
}

/**
 * Functions the request is handed to (`helper(req)`, `helper(ctx, req, 'name')`), but not to read who
 * calls; with the field names given to them as string literals (`optionalId(req, 'parent_id')`).
 */
function handedTo(text: string, param: string): { name: string; literals: string[] }[] {
  const esc = param.replace(/\$/g, '\\$')
  const handedOn = new RegExp(`([A-Za-z_$][\\w$.]*)\\(\\s*(?:[^()]*,\\s*)?${esc}\\s*(?=([,)][^()]*))`, 'g')
  return [...text.matchAll(handedOn)]
    .filter((m) => !/principal|(^|\.)audit\./i.test(m[1]))
    .map((m) => ({
      name: m[1],
      literals: m[2].startsWith(',')
        ? [...m[2].matchAll(/^\s*['"]([\w.-]+)['"]|,\s*['"]([\w.-]+)['"]/g)].map((l) => l[1] ?? l[2])
        : [],
    }))
}

/** Every function declared in a plugin's server files, by name: its text and first parameter. */
const pluginFunctions = new Map<string, Map<string, { text: string; param: string }[]>>()

function functionsOf(serverDir: string): Map<string, { text: string; param: string }[]> {
  let found = pluginFunctions.get(serverDir)
  if (found) return found
  found = new Map()
  const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.d.ts')
  )
  for (const file of files) {
    const source = sourceOf(join(serverDir, file))
    const visit = (node: ts.Node) => {
      let name: string | undefined
      let fn: ts.FunctionLikeDeclaration | undefined
      if (ts.isFunctionDeclaration(node) && node.name) [name, fn] = [node.name.text, node]
      else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) {
          ;[name, fn] = [node.name.text, node.initializer]
        }
      }
      if (name && fn) {
        const list = found!.get(name) ?? []
        const param = fn.parameters.map((p) => p.name.getText(source))
        // The request is the parameter typed PluginRequest, else the first.
        const typed = fn.parameters.find((p) => p.type?.getText(source).includes('PluginRequest'))
        list.push({ text: fn.getText(source), param: typed ? typed.name.getText(source) : (param[0] ?? 'req') })
        found!.set(name, list)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  pluginFunctions.set(serverDir, found)
  return found
}

/**
 * The reads of a plugin route's `handle`, from its compiled text: `req.field('x')`, `req.json('x')`,
 * `req.file('x')`, `req.files('x')` on the request parameter, and in the plugin's own functions the
 * request is handed to (found by name in its server files, a few levels deep). A request handed to
 * a function that cannot be found, or found twice, is reported in `hidden`.
 */
export function pluginHandleInputs(handle: (...args: never[]) => unknown, serverDir: string): HandlerInputs {
  const text = handle.toString()
  const param = /^(?:async\s*)?(?:function[^(]*)?\(?\s*([A-Za-z_$][\w$]*)/.exec(text)?.[1] ?? 'req'
  const out: HandlerInputs = { reads: requestReads(text, param), validators: [], hidden: [] }
  const functions = functionsOf(serverDir)
  const seen = new Set<string>()
  const follow = (calls: { name: string; literals: string[] }[], depth: number) => {
    for (const { name, literals } of calls) {
      // Several functions of that name (a `caller` per module): each may be the one; all are read.
      const found = functions.get(name.split('.').pop()!)
      if (!found || depth > 4) {
        out.hidden.push(`${name}(${param})`)
        continue
      }
      // A helper that reads a field by a name it is given reads the names given (`optionalId(req, 'parent_id')`).
      if (found.some((fn) => new RegExp(`\\b${fn.param}\\.(field|json|file|files)\\(\\s*[A-Za-z_]`).test(fn.text))) {
        for (const literal of literals) out.reads.push({ name: literal, kind: 'text', required: false })
      }
      if (seen.has(name)) continue
      seen.add(name)
      for (const fn of found) {
        out.reads.push(...requestReads(fn.text, fn.param))
        follow(handedTo(fn.text, fn.param), depth + 1)
      }
    }
  }
  follow(handedTo(text, param), 0)
  out.hidden = [...new Set(out.hidden)].sort()
  return out
}
