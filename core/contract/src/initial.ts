/**
 * What a form starts from when it is opened: its values (the given ones over each type's default), and
 * the shape of what the server evaluates from them and sends with the form's info (issue 23), so the
 * browser draws page 1 as its own first evaluation will leave it. One implementation for the runtime's
 * store and the server.
 */
import type { Json } from '@tramita/sandbox'
import type { FormConfig } from './config.js'
import type { FieldTypeRegistry } from './registry.js'
import { parseSetEntryKey } from './sets.js'

/** Conditions by field and formula results by field, as the first evaluation of the form gives them. */
export interface InitialState {
  conditions: Record<string, boolean>
  values: Record<string, Json>
  /**
   * Set when the browser's own first evaluation of the same values would give exactly this: no script
   * failed and none calls a host function whose answer depends on the engine (HOST_DEPENDENT). The
   * browser then skips that evaluation, and takes `reads` (the names each script reads, by script id,
   * as graph.ts found them) instead of parsing every script to build its graph.
   */
  settled?: true
  reads?: Record<string, string[]>
}

/**
 * Every field's starting value: the given one, else its type's default (an absent or null value is
 * not given); and the given values of set repetitions (name[id] of a set field; other keys are not
 * the form's).
 */
export function initialValues(
  config: FormConfig,
  registry: FieldTypeRegistry,
  given: Record<string, unknown>
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  const sets = new Set<string>()
  for (const item of config.fields) {
    const value = given[item.field_name]
    values[item.field_name] =
      value === undefined || value === null ? registry.get('field', item.type)?.defaultValue(item) : value
    if (item.isSet) sets.add(item.field_name)
  }
  for (const [key, value] of Object.entries(given)) {
    const parsed = parseSetEntryKey(key)
    if (parsed && sets.has(parsed.name) && value !== undefined && value !== null) values[key] = value
  }
  return values
}
