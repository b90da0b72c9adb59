/**
 * Finding the enabled plugins and their field types on disk (Node only: the server's loader and the
 * browser bundles' Vite configs use it, so both read the same list the same way).
 *
 * A plugin contributes field types by exporting `./types` in its package.json: a module whose
 * default export is a list of `defineFieldType(...)` values from @tramita/contract (isomorphic: it is
 * bundled into the designer and the runtime and imported by the server).
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * The file that lists the enabled plugins: TRAMITA_PLUGINS_FILE when set (an installation that keeps
 * its settings elsewhere, or a test scaffolding a plugin without touching the repository's list), else
 * `root`/tramita.plugins.json.
 */
export function pluginsFilePath(root: string, env: string | undefined = process.env.TRAMITA_PLUGINS_FILE): string {
  return env ? resolve(env) : resolve(root, 'tramita.plugins.json')
}

/**
 * The enabled plugin ids, in load order: TRAMITA_PLUGINS (comma-separated, may be empty) when set,
 * else the `enabled` list of the plugins file (none when there is no file).
 */
export function readEnabledPluginIds(
  pluginsFile: string,
  env: string | undefined = process.env.TRAMITA_PLUGINS
): string[] {
  if (env !== undefined) {
    return env
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean)
  }
  if (!existsSync(pluginsFile)) return []
  const parsed = JSON.parse(readFileSync(pluginsFile, 'utf8')) as { enabled?: unknown }
  if (!Array.isArray(parsed.enabled) || parsed.enabled.some((id) => typeof id !== 'string')) {
    throw new Error(`${pluginsFile}: "enabled" must be a list of plugin ids`)
  }
  return parsed.enabled as string[]
}

/** The absolute path of an export of a plugin's package.json (`./types`, `./web`...), or undefined. */
export function pluginExport(pluginsDir: string, id: string, key: string): string | undefined {
  const manifest = resolve(pluginsDir, id, 'package.json')
  if (!existsSync(manifest)) return undefined
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown }).exports
  const entry = typeof exports === 'object' && exports !== null ? (exports as Record<string, unknown>)[key] : undefined
  if (entry === undefined) return undefined
  if (typeof entry !== 'string') throw new Error(`${manifest}: the "${key}" export must be a path`)
  return resolve(pluginsDir, id, entry)
}

/** The id the browser code imports the enabled plugins' field types by. */
export const FIELD_TYPES_MODULE = 'virtual:tramita-field-types'

/**
 * The source of that module: `export default [{ plugin, types }]`, one entry per enabled plugin
 * with a `./types` module, in load order, and `registry`, the core's types with those.
 */
export function fieldTypesModuleSource(pluginsDir: string, ids: readonly string[]): string {
  const found = ids.flatMap((id) => {
    const entry = pluginExport(pluginsDir, id, './types')
    return entry ? [{ id, entry }] : []
  })
  // Without plugin types the registry is the core one, and the composing code stays out of the bundle.
  if (found.length === 0) {
    return `import { coreRegistry } from '@tramita/contract'\nexport default []\nexport const registry = coreRegistry()\n`
  }
  const imports = found.map(({ entry }, i) => `import types${i} from ${JSON.stringify(entry)}\n`).join('')
  const list = found.map(({ id }, i) => `{ plugin: ${JSON.stringify(id)}, types: types${i} }`).join(', ')
  return (
    `import { registryWithPlugins } from '@tramita/contract'\n${imports}const plugins = [${list}]\n` +
    `export default plugins\nexport const registry = registryWithPlugins(plugins)\n`
  )
}

/**
 * A Vite plugin serving the virtual module `id`, generated at build time by `source` from the plugins
 * enabled in `root` (the repository: its plugins file, pluginsFilePath, and plugins/). Structural, so this package
 * needs no Vite.
 */
function virtualModule(id: string, source: (pluginsDir: string, ids: readonly string[]) => string, root: string) {
  const resolved = `\0${id}`
  return {
    name: id.replace('virtual:', ''),
    resolveId: (requested: string) => (requested === id ? resolved : undefined),
    load: (requested: string) =>
      requested === resolved
        ? source(resolve(root, 'plugins'), readEnabledPluginIds(pluginsFilePath(root)))
        : undefined,
  }
}

/** The Vite plugin serving FIELD_TYPES_MODULE. */
export const tramitaFieldTypes = (root: string) => virtualModule(FIELD_TYPES_MODULE, fieldTypesModuleSource, root)

/** The id the browser code imports the action engine by (with the enabled plugins' handlers). */
export const ACTIONS_MODULE = 'virtual:tramita-actions'

/**
 * The source of ACTIONS_MODULE: `export const actions` is null when the actions plugin is not enabled
 * (forms then run no actions), else its engine with a handler registry of the core handlers and those
 * of every enabled plugin exporting `./action-handlers` (default: a list of defineActionHandler values;
 * optional `types`: the contract action types they handle), in load order; `texts` loads such a
 * plugin's locale file of one language (its handlers' toasts are keys under `<plugin>.`).
 */
export function actionsModuleSource(pluginsDir: string, ids: readonly string[]): string {
  const engine = ids.includes('actions') ? pluginExport(pluginsDir, 'actions', './web') : undefined
  if (!engine) return 'export const actions = null\n'
  const found = ids.flatMap((id) => {
    const entry = pluginExport(pluginsDir, id, './action-handlers')
    return entry ? [{ id, entry }] : []
  })
  const imports = found.map(({ entry }, i) => `import * as plugin${i} from ${JSON.stringify(entry)}\n`).join('')
  const handlers = found.map((_, i) => `...plugin${i}.default`).join(', ')
  const types = found.map((_, i) => `...(plugin${i}.types ?? [])`).join(', ')
  // The handlers' own texts (`<plugin>.*`, their toasts): each language a lazy chunk, loaded with the engine.
  const texts = found.flatMap(({ id }) => {
    const locales = pluginLocaleFiles(pluginsDir, id)
    if (!locales) return []
    const load = TEXT_LANGUAGES.map((lang) => `${lang}: () => import(${JSON.stringify(locales[lang])})`).join(', ')
    return [`    { plugin: ${JSON.stringify(id)}, load: { ${load} } },\n`]
  })
  return (
    `import { coreActionTypes, createActionTypeRegistry } from '@tramita/contract'\n` +
    `import * as engine from ${JSON.stringify(engine)}\n${imports}` +
    `export const actions = {\n  engine,\n` +
    `  handlers: engine.createActionHandlerRegistry([...engine.coreActionHandlers${handlers ? `, ${handlers}` : ''}]),\n` +
    `  types: createActionTypeRegistry([...coreActionTypes${types ? `, ${types}` : ''}]),\n` +
    `  texts: [\n${texts.join('')}  ],\n}\n`
  )
}

/** The Vite plugin serving ACTIONS_MODULE. */
export const tramitaActions = (root: string) => virtualModule(ACTIONS_MODULE, actionsModuleSource, root)

/** The id the designer imports the action types by (the core's and the enabled plugins'). */
export const ACTION_TYPES_MODULE = 'virtual:tramita-action-types'

/**
 * The source of ACTION_TYPES_MODULE: `export const actionTypes`, a registry of the core action types
 * and those of every enabled plugin exporting `./action-types` (isomorphic; default export the list), in
 * load order: what the server checks forms against (core/server/app/plugins/action_types.ts), so the
 * designer offers and accepts the same steps. Without such plugins it is the core registry.
 */
export function actionTypesModuleSource(pluginsDir: string, ids: readonly string[]): string {
  const entries = ids.flatMap((id) => pluginExport(pluginsDir, id, './action-types') ?? [])
  if (entries.length === 0) {
    return `import { coreActionRegistry } from '@tramita/contract'\nexport const actionTypes = coreActionRegistry()\n`
  }
  const imports = entries.map((entry, i) => `import types${i} from ${JSON.stringify(entry)}\n`).join('')
  const lists = entries.map((_, i) => `...types${i}`).join(', ')
  return (
    `import { coreActionTypes, createActionTypeRegistry } from '@tramita/contract'\n${imports}` +
    `export const actionTypes = createActionTypeRegistry([...coreActionTypes, ${lists}])\n`
  )
}

/** The Vite plugin serving ACTION_TYPES_MODULE. */
export const tramitaActionTypes = (root: string) => virtualModule(ACTION_TYPES_MODULE, actionTypesModuleSource, root)

/** The languages a plugin's texts come in: `plugins/<id>/locales/<language>.json`. */
const TEXT_LANGUAGES = ['es', 'en', 'zh'] as const

/**
 * A plugin's text files by language (absent when it has none). One layout for both halves: the server
 * merges them under `<id>.` with the core's texts, the web app loads the page's language under `<id>.`
 * with the plugin's screens, so `documents.no_rename` is one key everywhere.
 */
export function pluginLocaleFiles(pluginsDir: string, id: string): Record<'es' | 'en' | 'zh', string> | undefined {
  const files = Object.fromEntries(
    TEXT_LANGUAGES.map((lang) => [lang, resolve(pluginsDir, id, 'locales', `${lang}.json`)])
  )
  return TEXT_LANGUAGES.every((lang) => existsSync(files[lang]!))
    ? (files as Record<'es' | 'en' | 'zh', string>)
    : undefined
}

/** The id the browser code imports the enabled plugins' screens by. */
export const SCREENS_MODULE = 'virtual:tramita-screens'

/**
 * The source of SCREENS_MODULE: `export default [{ plugin, screens, texts }]`, one entry per enabled
 * plugin exporting `./screens` (default: a defineWebPlugin value), in load order; `texts` loads the
 * plugin's locale file of one language (null without locales). Only imports of small descriptors:
 * each screen's code and each language's texts stay lazy chunks. A disabled plugin is not in the build.
 */
export function screensModuleSource(pluginsDir: string, ids: readonly string[]): string {
  const found = ids.flatMap((id) => {
    const entry = pluginExport(pluginsDir, id, './screens')
    return entry ? [{ id, entry, locales: pluginLocaleFiles(pluginsDir, id) }] : []
  })
  const imports = found.map(({ entry }, i) => `import web${i} from ${JSON.stringify(entry)}\n`).join('')
  const entries = found.map(({ id, locales }, i) => {
    const texts = locales
      ? `{ ${TEXT_LANGUAGES.map((lang) => `${lang}: () => import(${JSON.stringify(locales[lang])})`).join(', ')} }`
      : 'null'
    return `  { plugin: ${JSON.stringify(id)}, screens: web${i}.screens, texts: ${texts} },\n`
  })
  return `${imports}export default [\n${entries.join('')}]\n`
}

/** The Vite plugin serving SCREENS_MODULE. */
export const tramitaScreens = (root: string) => virtualModule(SCREENS_MODULE, screensModuleSource, root)

/** The id the browser code imports the device capture of the core's dialogs by. */
export const FORM_DEVICES_MODULE = 'virtual:tramita-form-devices'

/**
 * The source of FORM_DEVICES_MODULE: `export const formDevices` is null when no enabled plugin exports
 * `./form-devices`, else a dynamic import of the first one's in load order (its default export, a
 * FormDevices value from ./web.ts): a chunk of its own, loaded when a dialog first asks for it.
 */
export function formDevicesModuleSource(pluginsDir: string, ids: readonly string[]): string {
  const entry = ids.map((id) => pluginExport(pluginsDir, id, './form-devices')).find(Boolean)
  if (!entry) return 'export const formDevices = null\n'
  return `export const formDevices = () => import(${JSON.stringify(entry)}).then((module) => module.default)\n`
}

/** The Vite plugin serving FORM_DEVICES_MODULE. */
export const tramitaFormDevices = (root: string) => virtualModule(FORM_DEVICES_MODULE, formDevicesModuleSource, root)
