import { pathToFileURL } from 'node:url'
import { pluginExport } from '@tramita/plugin-api/discover'
import { registryWithPlugins, type FieldTypeRegistry, type PluginFieldTypes } from '@tramita/contract'
import { enabledPluginIds, PLUGINS_DIR } from './enabled.js'

/**
 * The field types of the given plugins (those whose package exports `./types`), in load order. A
 * module that fails to import or exports no list throws with the plugin's name: the server must not
 * validate forms against fewer types than the designer and the runtime were built with.
 */
export async function loadPluginFieldTypes(
  ids: readonly string[],
  pluginsDir = PLUGINS_DIR
): Promise<PluginFieldTypes[]> {
  const found: PluginFieldTypes[] = []
  for (const id of ids) {
    const entry = pluginExport(pluginsDir, id, './types')
    if (!entry) continue
    const module = (await import(pathToFileURL(entry).href)) as { default?: unknown }
    if (!Array.isArray(module.default)) {
      throw new Error(`Plugin "${id}": ${entry} must export a list of field types by default`)
    }
    found.push({ plugin: id, types: module.default })
  }
  return found
}

let cache: Promise<FieldTypeRegistry> | undefined

/** The registry of the core's and the enabled plugins' field types (loaded once). */
export function fieldTypeRegistry(): Promise<FieldTypeRegistry> {
  cache ??= loadPluginFieldTypes(enabledPluginIds()).then(registryWithPlugins)
  return cache
}
