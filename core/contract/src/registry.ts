/**
 * The field-type registry: the seam through which every field and element type, the core's and the
 * plugins', reaches the designer (property panels from `schema`), the runtime (renderers keyed on
 * kind and type) and the server (stored values, required rule, value validation).
 *
 * Registries are explicit values: `createFieldTypeRegistry([...coreFieldTypes, ...pluginTypes])`.
 * Nothing registers itself on import.
 */
import type { Static, TObject, TProperties, TSchema, TUnknown } from '@sinclair/typebox'
import * as Type from './schema/type.js'
import { CommonDataProps, CommonFieldProps, RefProps, validateSchema, type RuleMessage } from './schema/common.js'
import { isBlank } from './types/shared.js'

export type ItemKind = 'field' | 'element'

/** What the server stores for every field (spec 000 §3): display text, serialised and typed value. */
export interface StoredValue {
  type: string
  value_replace: string
  value_simple: string
  value: unknown
}

/** Where a value is being turned into text: the language of fixed texts ('es' by default). */
export interface ValueContext {
  lang?: string
}

// The common parts' static types are named once so TypeScript does not re-expand them per type.
type CommonFieldValues = Static<TObject<typeof CommonFieldProps>>
type CommonDataValues = Static<TObject<typeof CommonDataProps>>
type RefValues = Static<TObject<typeof RefProps>>

/** A field or element as its type's schema describes it, defaults applied. */
/** No type-specific keys. */
type NoProps = Record<never, never>

export type ItemOf<D extends TProperties = NoProps, R extends TProperties = NoProps> = CommonFieldValues & {
  type: string
  data: CommonDataValues & Static<TObject<D>> & { ref: RefValues & Static<TObject<R>> }
}

export interface FieldTypeSpec<D extends TProperties, R extends TProperties, V extends TSchema> {
  /** 'field' (holds a value) or 'element' (layout, text, buttons); defaults to 'field'. */
  kind?: ItemKind
  type: string
  /** Type-specific keys of `data`, beside the common ones. */
  data?: D
  /** Type-specific keys of `data.ref`. */
  ref?: R
  /** The rules of `validate` whose message a designer may word, beside required (fields only). */
  messages?: readonly Exclude<RuleMessage, 'required'>[]
  /** The schema of the value the type holds (fields only). */
  value?: V
  /** The value before anything is entered. */
  defaultValue?: (item: ItemOf<D, R>) => Static<V>
  /** value_replace (display text) and value_simple (serialised) of a value of the right shape. */
  stored?: (item: ItemOf<D, R>, value: Static<V>, ctx: ValueContext) => { value_replace: string; value_simple: string }
  /** The required pass condition (spec 000 §5). */
  required?: (item: ItemOf<D, R>, value: Static<V>) => boolean
  /** Problems beyond the value's shape (limits, patterns, counts), as messages. */
  validate?: (item: ItemOf<D, R>, value: Static<V>, ctx: ValueContext) => string[]
  /** A value set from outside (URL presets, autocomplete, scripts) from its text. */
  coerce?: (item: ItemOf<D, R>, text: string) => Static<V>
}

/** A registered type: the spec plus the full schema of an item of that type. */
export interface FieldType {
  readonly kind: ItemKind
  readonly type: string
  /** JSON Schema (TypeBox) of a whole item of this type, with every default annotated. */
  readonly schema: TObject
  /** JSON Schema of the value; undefined for elements. */
  readonly valueSchema?: TSchema
  /** Whether a submission may carry a value for it (elements never do). */
  readonly holdsValue: boolean
  defaultValue(item: any): unknown
  stored(item: any, value: any, ctx: ValueContext): { value_replace: string; value_simple: string }
  required(item: any, value: any): boolean
  validate(item: any, value: any, ctx?: ValueContext): string[]
  coerce(item: any, text: string): unknown
}

/** Declares a field or element type. Pure: registering happens when a registry is created from it. */
export function defineFieldType<
  D extends TProperties = NoProps,
  R extends TProperties = NoProps,
  V extends TSchema = TUnknown,
>(spec: FieldTypeSpec<D, R, V>): FieldType {
  const kind = spec.kind ?? 'field'
  const ref = Type.Object({ ...RefProps, ...(spec.ref ?? {}) }, { additionalProperties: false, default: {} })
  const validate = validateSchema(kind === 'field' ? ['required', ...(spec.messages ?? [])] : [])
  const data = Type.Object(
    { ...CommonDataProps, validate, ...(spec.data ?? {}), ref },
    { additionalProperties: false, default: {} }
  )
  const schema = Type.Object(
    { ...CommonFieldProps, type: Type.Literal(spec.type), data },
    { additionalProperties: false, $id: `${kind}:${spec.type}` }
  )
  const holdsValue = kind === 'field'
  return Object.freeze({
    kind,
    type: spec.type,
    schema,
    valueSchema: holdsValue ? (spec.value ?? Type.Unknown()) : undefined,
    holdsValue,
    defaultValue: (item: any) => (spec.defaultValue ? spec.defaultValue(item) : ''),
    stored: (item: any, value: any, ctx: ValueContext) =>
      spec.stored
        ? spec.stored(item, value, ctx)
        : { value_replace: isBlank(value) ? '' : String(value), value_simple: isBlank(value) ? '' : String(value) },
    required: (item: any, value: any) => (spec.required ? spec.required(item, value) : !isBlank(value)),
    validate: (item: any, value: any, ctx: ValueContext = {}) => (spec.validate ? spec.validate(item, value, ctx) : []),
    coerce: (item: any, text: string) => (spec.coerce ? spec.coerce(item, text) : text),
  })
}

export interface FieldTypeRegistry {
  get(kind: ItemKind, type: string): FieldType | undefined
  /** Throws when the type is not registered. */
  require(kind: ItemKind, type: string): FieldType
  list(kind?: ItemKind): FieldType[]
}

/** A registry of the given types; the same kind and type twice is an error (a plugin may not shadow). */
export function createFieldTypeRegistry(types: readonly FieldType[]): FieldTypeRegistry {
  const byKey = new Map<string, FieldType>()
  for (const fieldType of types) {
    const key = `${fieldType.kind}:${fieldType.type}`
    if (byKey.has(key)) throw new Error(`The ${fieldType.kind} type "${fieldType.type}" is registered twice`)
    byKey.set(key, fieldType)
  }
  const all = [...byKey.values()]
  return Object.freeze({
    get: (kind: ItemKind, type: string) => byKey.get(`${kind}:${type}`),
    require(kind: ItemKind, type: string) {
      const found = byKey.get(`${kind}:${type}`)
      if (!found) throw new Error(`Unknown ${kind} type "${type}"`)
      return found
    },
    list: (kind?: ItemKind) => (kind ? all.filter((t) => t.kind === kind) : [...all]),
  })
}
