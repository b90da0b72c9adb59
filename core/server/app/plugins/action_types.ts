import { pathToFileURL } from 'node:url'
import { pluginExport } from '@tramita/plugin-api/discover'
import { coreActionTypes, createActionTypeRegistry, type ActionType, type ActionTypeRegistry } from '@tramita/contract'
import { enabledPluginIds, PLUGINS_DIR } from './enabled.js'

/**
 * The action types of the given plugins (those whose package exports `./action-types`: an isomorphic
 * module, default export the list), in load order. A module that fails to import or exports no list
 * throws with the plugin's name: the server must not refuse the steps the runtime can run.
 */
export async function loadPluginActionTypes(ids: readonly string[], pluginsDir = PLUGINS_DIR): Promise<ActionType[]> {
  const found: ActionType[] = []
  for (const id of ids) {
    const entry = pluginExport(pluginsDir, id, './action-types')
    if (!entry) continue
    const module = (await import(pathToFileURL(entry).href)) as { default?: unknown }
    if (!Array.isArray(module.default)) {
      throw new Error(`Plugin "${id}": ${entry} must export a list of action types by default`)
    }
    found.push(...(module.default as ActionType[]))
  }
  return found
}

let cache: Promise<ActionTypeRegistry> | undefined

/** The registry of the core's and the enabled plugins' action types (loaded once), for form validation. */
export function actionTypeRegistry(): Promise<ActionTypeRegistry> {
  cache ??= loadPluginActionTypes(enabledPluginIds()).then((types) =>
    createActionTypeRegistry([...coreActionTypes, ...types])
  )
  return cache
}
