/**
 * Schema defaults applied by a function built once per schema. TypeBox's Value.Default interprets
 * the schema on every call and visits each object property twice, so its cost doubles with each level
 * of nesting: a 500-field form took ~50 ms in Node and ~300 ms in a phone-class browser. This walks
 * objects and arrays itself, with TypeBox's semantics (a missing value takes a clone of the default;
 * an object value is laid over an object default), and hands every other kind (unions, records,
 * references) to Value.Default, so the result is the same (tests/defaults.spec.ts compares them).
 */
import { Kind, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

type Applier = (value: unknown) => unknown

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

function valueOrDefault(schema: TSchema, value: unknown): unknown {
  if (!('default' in schema)) return value
  const given = schema.default
  // A string, number or boolean is its own copy; objects and arrays are cloned (each item its own).
  const fallback = typeof given === 'function' ? given() : isObject(given) ? Value.Clone(given) : given
  if (value === undefined) return fallback
  return isObject(value) && isObject(fallback) ? Object.assign(fallback, value) : value
}

/** The applier of a schema with no default of its own and nothing inside that has one. */
const unchanged: Applier = (value) => value

const SCALARS = new Set(['Literal', 'String', 'Number', 'Integer', 'Boolean', 'Null'])

const compiled = new WeakMap<TSchema, Applier>()

export function defaultsApplier(schema: TSchema): Applier {
  let applier = compiled.get(schema)
  if (!applier) {
    applier = build(schema)
    compiled.set(schema, applier)
  }
  return applier
}

function build(schema: TSchema): Applier {
  switch (schema[Kind]) {
    case 'Object': {
      // Two parallel arrays walked by index: this loop runs for every property of every item.
      // Properties with nothing to default (no default of their own, nothing inside) are left out.
      const props = schema.properties as Record<string, TSchema>
      const keys = Object.keys(props).filter((key) => defaultsApplier(props[key]!) !== unchanged)
      const appliers = keys.map((key) => defaultsApplier(props[key]!))
      // Additional properties with defaults of their own: rare enough to leave to TypeBox.
      if (isObject(schema.additionalProperties) && 'default' in schema.additionalProperties) {
        return (value) => Value.Default(schema, value)
      }
      if (keys.length === 0 && !('default' in schema)) return unchanged
      return (value) => {
        const defaulted = valueOrDefault(schema, value)
        if (!isObject(defaulted)) return defaulted
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!
          const next = appliers[i]!(defaulted[key])
          if (next !== undefined) defaulted[key] = next
        }
        return defaulted
      }
    }
    case 'Array': {
      const items = defaultsApplier(schema.items as TSchema)
      if (items === unchanged && !('default' in schema)) return unchanged
      return (value) => {
        const defaulted = Array.isArray(value) ? value : valueOrDefault(schema, value)
        if (!Array.isArray(defaulted)) return defaulted
        for (let i = 0; i < defaulted.length; i++) defaulted[i] = items(defaulted[i])
        return defaulted
      }
    }
    case 'Union':
      // Scalar choices with no defaults of their own (states, styles, types): the union's default decides.
      if ((schema.anyOf as TSchema[]).every((inner) => SCALARS.has(inner[Kind]) && !('default' in inner))) {
        return 'default' in schema ? (value) => valueOrDefault(schema, value) : unchanged
      }
      return (value) => Value.Default(schema, value)
    case 'Record':
    case 'Intersect':
    case 'Tuple':
    case 'Ref':
    case 'Import':
    case 'This':
    case 'Date':
      return (value) => Value.Default(schema, value)
    default:
      return 'default' in schema ? (value) => valueOrDefault(schema, value) : unchanged
  }
}
