/**
 * Field types contributed by plugins. An enabled plugin whose package exports `./types` (a module
 * whose default export is a list of `defineFieldType(...)` values, isomorphic like the contract)
 * adds them to the registry the server validates with, and the designer and runtime build theirs
 * from (a Vite virtual module lists the same enabled plugins' `./types`). One function composes it,
 * so the three agree on which types exist.
 */
import { coreFieldTypes, coreRegistry } from './core-types.js'
import { createFieldTypeRegistry, type FieldType, type FieldTypeRegistry } from './registry.js'

export interface PluginFieldTypes {
  /** The plugin's id (named in the error when its types clash). */
  plugin: string
  types: readonly FieldType[]
}

const isFieldType = (value: unknown): value is FieldType =>
  typeof value === 'object' &&
  value !== null &&
  ((value as FieldType).kind === 'field' || (value as FieldType).kind === 'element') &&
  typeof (value as FieldType).type === 'string' &&
  typeof (value as FieldType).schema === 'object'

/**
 * The core types and the plugins' (in the plugins' load order). A plugin type may not take a name
 * the core or an earlier plugin has: the error names both owners.
 */
export function registryWithPlugins(plugins: readonly PluginFieldTypes[]): FieldTypeRegistry {
  if (plugins.every((plugin) => plugin.types.length === 0)) return coreRegistry()
  const owners = new Map<string, string>(coreFieldTypes.map((t) => [`${t.kind}:${t.type}`, 'the core']))
  const added: FieldType[] = []
  for (const { plugin, types } of plugins) {
    for (const fieldType of types) {
      if (!isFieldType(fieldType)) {
        throw new TypeError(`Plugin "${plugin}" exports a field type that is not made with defineFieldType`)
      }
      const key = `${fieldType.kind}:${fieldType.type}`
      const owner = owners.get(key)
      if (owner) {
        throw new Error(`Plugin "${plugin}" registers the ${fieldType.kind} type "${fieldType.type}" of ${owner}`)
      }
      owners.set(key, `plugin "${plugin}"`)
      added.push(fieldType)
    }
  }
  return createFieldTypeRegistry([...coreFieldTypes, ...added])
}
