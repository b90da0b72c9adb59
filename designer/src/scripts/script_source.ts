/**
 * The pure half of the script editor: which form a script compiles as (the sandbox's rule), the
 * TypeScript text that checks it, and positions mapped back from that text to the script. No Monaco,
 * no DOM: unit-tested in Node against the TypeScript compiler with the same wrapper and options.
 *
 * The sandbox compiles a script first as an expression (`return (SRC\n)`) and, if that does not
 * parse, as a function body. Syntax is the sandbox's to judge (acorn, through analyzeScript: the
 * same message validateConfig gives); types are TypeScript's, over a wrapper that puts the script on
 * lines of its own, so a position in the wrapper is the script's position plus a fixed offset:
 *
 *   export {}                          ← a module: the script's names stay its own
 *   ;(function (this: void) {          ← strict, like the sandbox's `function () { "use strict"; … }`
 *   return (                           ← expression form only
 *   SRC
 *   )                                  ← expression form only
 *   })()
 */
import { analyzeScript } from '@tramita/sandbox'

export type ScriptForm = 'expression' | 'body'

export interface ScriptDiagnostic {
  /** 'syntax' comes from the sandbox's parser, 'type' from TypeScript. */
  kind: 'syntax' | 'type'
  message: string
  /** 1-based, in the script as the user wrote it (the editor's own numbering). */
  line: number
  column: number
  endLine: number
  endColumn: number
  /** TypeScript's error code (type diagnostics). */
  code?: number
}

/** Where the form's declarations live for TypeScript (Monaco's extra lib, and the Node check). */
export const TYPINGS_PATH = 'file:///form.d.ts'

/**
 * The compiler options the scripts are checked with, as plain numbers so Monaco's worker and the
 * `typescript` package read the same object. Strict, except implicit `any`: a script is JavaScript
 * and cannot annotate a parameter. ES2022 only: no DOM, nothing the sandbox does not have.
 */
export const SCRIPT_COMPILER_OPTIONS = {
  strict: true,
  noImplicitAny: false,
  noEmit: true,
  allowJs: false,
  /** ts.ScriptTarget.ES2022 */
  target: 9,
  /** ts.ModuleKind.ESNext */
  module: 99,
  lib: ['lib.es2022.d.ts'],
  types: [] as string[],
} as const

const HEAD = 'export {}\n;(function (this: void) {\n'
const WRAP: Record<ScriptForm, [before: string, after: string]> = {
  expression: [`${HEAD}return (\n`, '\n)\n})()\n'],
  body: [HEAD, '\n})()\n'],
}

/** The script wrapped for TypeScript, and where the script starts inside it. */
export interface WrappedScript {
  form: ScriptForm
  source: string
  text: string
  /** Offset of the script's first character in `text`. */
  offset: number
}

/**
 * The sandbox's verdict on a script: its form, or the syntax error it would report. The sandbox
 * does not say which form it chose, so the form is asked indirectly: a valid script is an
 * expression exactly when `return (SRC\n)` is a valid body (its brackets balance, so the closing
 * parenthesis is the wrapper's and SRC is one parenthesised expression).
 */
export function scriptForm(source: string): { form: ScriptForm; error?: string } {
  const { error } = analyzeScript(source)
  if (error) return { form: 'body', error }
  return { form: analyzeScript(`return (${source}\n)`).error ? 'body' : 'expression' }
}

export function wrapScript(source: string, form: ScriptForm): WrappedScript {
  const [before, after] = WRAP[form]
  return { form, source, text: before + source + after, offset: before.length }
}

/** 1-based line and column of an offset of `text` (line breaks as editors count them: \n, \r\n, \r). */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const at = Math.min(Math.max(offset, 0), text.length)
  let line = 1
  let start = 0
  for (let i = 0; i < at; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++
      start = i + 1
    }
  }
  return { line, column: at - start + 1 }
}

/** An offset of the wrapper as an offset of the script, clamped into it (wrapper text → its edges). */
export function toSourceOffset(wrapped: WrappedScript, offset: number): number {
  return Math.min(Math.max(offset - wrapped.offset, 0), wrapped.source.length)
}

/** A TypeScript diagnostic, as Monaco's worker and the compiler API both give it. */
export interface RawDiagnostic {
  start?: number
  length?: number
  code: number
  /** ts.DiagnosticCategory: 0 warning, 1 error, 2 suggestion, 3 message. */
  category: number
  messageText: string | MessageChain
}

interface MessageChain {
  messageText: string
  next?: MessageChain[]
}

export function flattenMessage(message: string | MessageChain, indent = 0): string {
  if (typeof message === 'string') return message
  const lines = [`${'  '.repeat(indent)}${message.messageText}`]
  for (const next of message.next ?? []) lines.push(flattenMessage(next, indent + 1))
  return lines.join('\n')
}

/** TypeScript's errors on the wrapper as diagnostics of the script (warnings and suggestions dropped). */
export function mapDiagnostics(wrapped: WrappedScript, raw: readonly RawDiagnostic[]): ScriptDiagnostic[] {
  const seen = new Set<string>()
  const out: ScriptDiagnostic[] = []
  for (const d of raw) {
    if (d.category !== 1) continue
    const from = toSourceOffset(wrapped, d.start ?? wrapped.offset)
    const to = Math.max(from, toSourceOffset(wrapped, (d.start ?? wrapped.offset) + (d.length ?? 0)))
    const start = positionAt(wrapped.source, from)
    const end = positionAt(wrapped.source, to)
    const diagnostic: ScriptDiagnostic = {
      kind: 'type',
      message: flattenMessage(d.messageText),
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      code: d.code,
    }
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.code}:${diagnostic.message}`
    if (!seen.has(key)) out.push(diagnostic)
    seen.add(key)
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column)
}

/**
 * The sandbox's syntax error as a diagnostic. analyzeScript ends its message with `(line:column)`,
 * the column 0-based (acorn's); the diagnostic spans to the end of that line.
 */
export function syntaxDiagnostic(source: string, error: string): ScriptDiagnostic {
  const match = /\s*\((\d+):(\d+)\)$/.exec(error)
  const line = match ? Number(match[1]) : 1
  const column = match ? Number(match[2]) + 1 : 1
  const text = source.split(/\r\n|\r|\n/)[line - 1] ?? ''
  return {
    kind: 'syntax',
    message: match ? error.slice(0, match.index) : error,
    line,
    column,
    endLine: line,
    endColumn: Math.max(column + 1, text.length + 1),
  }
}

/** What a script needs checked: its syntax error, or the wrapper TypeScript should check. */
export function prepareCheck(source: string): { syntax: ScriptDiagnostic } | { wrapped: WrappedScript } {
  const { form, error } = scriptForm(source)
  if (error) return { syntax: syntaxDiagnostic(source, error) }
  return { wrapped: wrapScript(source, form) }
}
