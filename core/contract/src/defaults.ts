/**
 * `withDefaults(config)`: the spec's defaults, applied in one place. Every default is an annotation on
 * the schema (schema/*.ts, types/*.ts), so this only walks the config with the right schema: the
 * form's for the frame, each item's own type schema for fields and elements.
 */
import { defaultsApplier } from './compiled-defaults.js'
import { FormConfigBase } from './schema/form.js'
import { coreRegistry } from './core-types.js'
import { cellType, REPEAT_TYPE } from './types/repeat.js'
import type { FieldTypeRegistry, ItemKind } from './registry.js'
import type { FormConfig, FormItem } from './config.js'

/** Configs are JSON: a JSON round trip is a faithful deep copy. */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One field or element with its type's defaults (unknown types are returned as they are). */
export function itemWithDefaults(
  item: unknown,
  kind: ItemKind,
  registry: FieldTypeRegistry = coreRegistry()
): FormItem {
  if (!isObject(item) || typeof item.type !== 'string') return item as FormItem
  return applyItemDefaults(clone(item), kind, registry)
}

/** itemWithDefaults on an item the caller owns: it is filled in place. */
function applyItemDefaults(item: Record<string, unknown>, kind: ItemKind, registry: FieldTypeRegistry): FormItem {
  const fieldType = registry.get(kind, item.type as string)
  const resolved = (fieldType ? defaultsApplier(fieldType.schema)(item) : item) as FormItem
  // A repeating group's cells are fields of their own types: each takes its type's defaults.
  if (kind === 'field' && item.type === REPEAT_TYPE && Array.isArray(resolved.data?.cells)) {
    resolved.data.cells = resolved.data.cells.map((cell: unknown) => {
      const type = isObject(cell) && typeof cell.type === 'string' ? cellType(cell.type) : undefined
      return type ? defaultsApplier(type.schema)(cell) : cell
    })
  }
  return resolved
}

/** A new config with every missing key set to the spec's default. The input is not changed. */
export function withDefaults(config: unknown, registry: FieldTypeRegistry = coreRegistry()): FormConfig {
  if (!isObject(config)) return config as FormConfig
  const resolved = defaultsApplier(FormConfigBase)(clone(config)) as Record<string, unknown>
  for (const kind of ['field', 'element'] as const) {
    const key = kind === 'field' ? 'fields' : 'elements'
    const items = resolved[key]
    // The config was copied whole above: its items are filled in place, not copied again.
    if (Array.isArray(items))
      resolved[key] = items.map((item) =>
        isObject(item) && typeof item.type === 'string' ? applyItemDefaults(item, kind, registry) : item
      )
  }
  return resolved as unknown as FormConfig
}
