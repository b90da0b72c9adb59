/**
 * The mapping file a migrating team writes for its own custom component types (issue 24, `--map FILE`):
 *
 *   { "formio":   { "<customType>": "<knownType>" | { "type": "<knownType>", ...properties } },
 *     "surveyjs": { "<customType>": ... } }
 *
 * A component of `customType` is imported as `knownType` (a type the importer already reads, or
 * "composite": its `components` / `elements` become fields of their own, read as `key.part`), with
 * the given properties over its own (say the `values` of a yes/no, or the parts of a name). An entry
 * may name a type the importer knows, to read it otherwise. A mapped type may not appear inside a
 * mapping's own properties, so a mapping cannot expand into itself. A bad file is a TypeMapError
 * naming the entry, never a crash.
 */
import { isFormioLeaf } from './formio-fields.js'
import { FIELD_MAKERS } from './surveyjs-fields.js'
import { MATRIX_MAKERS } from './surveyjs-matrix.js'
import { isObject, type Json } from './types.js'

export type Library = 'formio' | 'surveyjs'

/** Parts of a custom composite (a name, an address) imported as fields of their own. */
export const COMPOSITE = 'composite'

export interface TypeMapping {
  type: string
  /** Properties set over the component's own. */
  overrides: Json
}

export type TypeMap = Record<Library, Record<string, TypeMapping>>

export class TypeMapError extends Error {}

/** The containers each importer lays out (formio.ts, surveyjs.ts), besides its makers' types. */
const FORMIO_CONTAINERS = ['panel', 'fieldset', 'well', 'container', 'columns', 'table', 'tabs']

const LIBRARIES: Record<Library, { label: string; known: (type: string) => boolean }> = {
  formio: {
    label: 'Form.io',
    known: (type) => isFormioLeaf(type) || FORMIO_CONTAINERS.includes(type) || type === COMPOSITE,
  },
  surveyjs: {
    label: 'SurveyJS',
    known: (type) =>
      Object.hasOwn(FIELD_MAKERS, type) || Object.hasOwn(MATRIX_MAKERS, type) || type === 'panel' || type === COMPOSITE,
  },
}

/** Whether the importer of `library` reads `type` (so a mapping may target it). */
export const isKnownType = (library: Library, type: string) => LIBRARIES[library].known(type)

export const emptyTypeMap = (): TypeMap => ({ formio: {}, surveyjs: {} })

/** The first `type` inside `value` that is one of `mapped`, searched through objects and arrays. */
function mappedInside(value: unknown, mapped: Set<string>): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = mappedInside(item, mapped)
      if (found) return found
    }
    return undefined
  }
  if (!isObject(value)) return undefined
  if (typeof value.type === 'string' && mapped.has(value.type)) return value.type
  return mappedInside(Object.values(value), mapped)
}

function entry(library: Library, name: string, raw: unknown, mapped: Set<string>): TypeMapping {
  const { label, known } = LIBRARIES[library]
  const where = `"${library}.${name}"`
  if (name.trim() === '') throw new TypeMapError(`${library}: a custom type needs a name`)
  const overrides: Json = isObject(raw) ? { ...raw } : {}
  const type = typeof raw === 'string' ? raw : overrides.type
  delete overrides.type
  if (typeof type !== 'string' || type.trim() === '')
    throw new TypeMapError(`${where}: expected a type name or an object with a "type"`)
  if (!known(type))
    throw new TypeMapError(`${where}: "${type}" is not a ${label} type the importer reads (or "${COMPOSITE}")`)
  const inner = mappedInside(overrides, mapped)
  if (inner !== undefined) throw new TypeMapError(`${where}: its properties use "${inner}", which is mapped too`)
  return { type, overrides }
}

/** The mapping file checked and read; throws a TypeMapError saying what is wrong and where. */
export function parseTypeMap(json: unknown): TypeMap {
  if (!isObject(json)) throw new TypeMapError('a mapping file is a JSON object: {"formio": {...}, "surveyjs": {...}}')
  const map = emptyTypeMap()
  for (const [section, entries] of Object.entries(json)) {
    if (section !== 'formio' && section !== 'surveyjs')
      throw new TypeMapError(`unknown section "${section}": use "formio" or "surveyjs"`)
    if (!isObject(entries)) throw new TypeMapError(`"${section}" must be an object of custom type → type`)
    const mapped = new Set(Object.keys(entries))
    // fromEntries keeps a "__proto__" entry as a plain key, as the JSON wrote it.
    map[section] = Object.fromEntries(
      Object.entries(entries).map(([name, raw]) => [name, entry(section, name, raw, mapped)])
    )
  }
  return map
}
