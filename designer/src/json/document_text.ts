/**
 * The JSON view's text and what it reads back: the document as exported (`{name, jsonconfig,
 * process}`, the format of `tramita forms:export` and forms:import), parse errors with their line
 * and column, and files imported through the contract's definitionFromFile (Form.io and SurveyJS
 * included, with what could not be carried).
 */
import { parse as parseLoosely, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { definitionFromFile, parseTypeMap, type ImportFormat, type TypeMap, type Unmapped } from '@tramita/contract'
import type { DesignDocument } from '../model/index.js'

export function documentText(doc: DesignDocument): string {
  return JSON.stringify({ name: doc.name, jsonconfig: doc.jsonconfig, process: doc.process }, null, 2) + '\n'
}

export interface TextError {
  message: string
  line?: number
  column?: number
}

export type ReadText<T> = { ok: true; value: T } | { ok: false; error: TextError }

/** Line and column (1-based) of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const lines = before.split('\n')
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

/**
 * JSON.parse, and when it fails the first error's place: V8's messages give no position for many
 * errors, so jsonc-parser (strict: no comments, no trailing commas) finds it.
 */
export function parseJson(text: string): ReadText<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const errors: ParseError[] = []
    parseLoosely(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
    const first = errors[0]
    if (!first) return { ok: false, error: { message } }
    return {
      ok: false,
      error: { message: `${printParseErrorCode(first.error)} (${message})`, ...positionOf(text, first.offset) },
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The JSON view's text as a document: an object with a name, a jsonconfig and a process. */
export function readDocumentText(text: string): ReadText<{ name: string; jsonconfig: unknown; process: unknown }> {
  const parsed = parseJson(text)
  if (!parsed.ok) return parsed
  const value = parsed.value
  if (!isObject(value)) return { ok: false, error: { message: 'expected an object {name, jsonconfig, process}' } }
  for (const key of ['jsonconfig', 'process'] as const) {
    if (!isObject(value[key])) return { ok: false, error: { message: `"${key}" must be an object` } }
  }
  if (typeof value.name !== 'string' || value.name.trim() === '') {
    return { ok: false, error: { message: '"name" must be a non-empty text' } }
  }
  return { ok: true, value: { name: value.name, jsonconfig: value.jsonconfig, process: value.process } }
}

export interface Imported {
  format: ImportFormat
  unmapped: Unmapped[]
  /** What replaces the document: an exported form whole; any other file only the jsonconfig. */
  next: { name: string; jsonconfig: unknown; process: unknown }
}

/** A mapping file of custom component types (the CLI's `--map`), checked by the contract. */
export function readTypeMapText(text: string): ReadText<TypeMap> {
  const parsed = parseJson(text)
  if (!parsed.ok) return parsed
  try {
    return { ok: true, value: parseTypeMap(parsed.value) }
  } catch (error) {
    return { ok: false, error: { message: error instanceof Error ? error.message : String(error) } }
  }
}

/**
 * A form file read for the current document (`name`, `process` kept unless the file brings them);
 * `typeMap` says how to read custom component types.
 */
export function importText(
  text: string,
  current: DesignDocument,
  format?: ImportFormat,
  typeMap?: TypeMap
): ReadText<Imported> {
  const parsed = parseJson(text)
  if (!parsed.ok) return parsed
  try {
    const read = definitionFromFile(parsed.value, current.name, format, { typeMap })
    const whole = isObject(parsed.value) && 'jsonconfig' in parsed.value
    const next = whole
      ? read.definition
      : { name: current.name, jsonconfig: read.definition.jsonconfig, process: current.process }
    return { ok: true, value: { format: read.format, unmapped: read.unmapped, next } }
  } catch (error) {
    return { ok: false, error: { message: error instanceof Error ? error.message : String(error) } }
  }
}
