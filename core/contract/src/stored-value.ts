/**
 * `toStoredValue(field, raw)`: what the server stores for a field (spec 000 §3 "Stored value"):
 * {type, value_replace (display text), value_simple (serialised), value (typed)}.
 */
import { translate } from '@tramita/i18n'
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
  const stored = fieldType.stored(item, value, options)
  if (item.type === 'roles' && Array.isArray(value))
    stored.value_replace = value.map((role) => roleName(options, role)).join(', ')
  return { type: item.type, ...stored, value }
}

/**
 * A picked role as the stored text names it: the spec's four by their name in the language
 * (`role_names.*`), any other as it was named (no text of its own: the default). Here rather than in the
 * roles type, whose code the form route carries within its JavaScript budget; the runtime's picker names
 * the roles itself (runtime-web lib/roles.ts).
 */
function roleName(ctx: ValueContext, role: { name?: unknown }): string {
  const name = String(role.name ?? '')
  return translate(ctx.lang ?? 'es', `role_names.${name}`, { defaultValue: name })
}
