/**
 * `toStoredValue(field, raw)`: what the server stores for a field (spec 000 §3 "Stored value"):
 * {type, value_replace (display text), value_simple (serialised), value (typed)}.
 */
import { coreRegistry } from './core-types.js'
import { itemWithDefaults } from './defaults.js'
import { schemaProblems } from './validate-config.js'
import type { FieldTypeRegistry, StoredValue, ValueContext } from './registry.js'

export interface StoredValueOptions extends ValueContext {
  registry?: FieldTypeRegistry
}

/** Thrown for a value that does not have its type's shape (validateSubmission reports these first). */
export class ValueShapeError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string
  ) {
    super(`The value of "${field}" is not valid: ${detail}`)
  }
}

/**
 * The stored form of `raw` for `field` (its type's defaults are applied first). A missing value
 * (undefined or null) stores the type's default value, e.g. -1 for a level.
 */
export function toStoredValue(field: unknown, raw: unknown, options: StoredValueOptions = {}): StoredValue {
  const registry = options.registry ?? coreRegistry()
  const item = itemWithDefaults(field, 'field', registry)
  const fieldType = registry.require('field', item.type)
  const value = raw === undefined || raw === null ? fieldType.defaultValue(item) : raw
  const problems = schemaProblems(fieldType.valueSchema!, value)
  if (problems.length > 0) {
    throw new ValueShapeError(item.field_name, problems.map((p) => `${p.path || '/'} ${p.message}`).join('; '))
  }
  return { type: item.type, ...fieldType.stored(item, value, options), value }
}
