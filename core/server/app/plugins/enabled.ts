import { existsSync, readdirSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { PluginDefinition, PluginProgram } from '@tramita/plugin-api'
import { pluginExport, pluginsFilePath, readEnabledPluginIds } from '@tramita/plugin-api/discover'
import { REPO_ROOT } from '#lib/paths'

/** The file that lists the enabled plugins (TRAMITA_PLUGINS_FILE or tramita.plugins.json); `tramita make:plugin` appends to it. */
export const PLUGINS_FILE = pluginsFilePath(REPO_ROOT)
export const PLUGINS_DIR = resolve(REPO_ROOT, 'plugins')
const SERVER_ROOT = resolve(REPO_ROOT, 'core', 'server')

/**
 * The enabled plugin ids, in load order: TRAMITA_PLUGINS (comma-separated, may be empty) when set,
 * else PLUGINS_FILE. This list is the plugin registry: nothing loads by import side effect.
 */
export function enabledPluginIds(): string[] {
  return readEnabledPluginIds(PLUGINS_FILE)
}

/**
 * Plugins that exist for the test suites only (NODE_ENV=test and TRAMITA_FIXTURE_PLUGINS=1, which
 * bin/test.ts sets for every suite but the CLI's, whose commands list the installation's plugins): a
 * tiny plugin that exercises every service the core passes, loaded after the enabled ones. Never in
 * production.
 */
export const TEST_PLUGINS_DIR = resolve(SERVER_ROOT, 'tests', 'fixtures', 'plugins')

export function testPluginIds(): string[] {
  if (process.env.NODE_ENV !== 'test' || process.env.TRAMITA_FIXTURE_PLUGINS !== '1') return []
  if (!existsSync(TEST_PLUGINS_DIR)) return []
  return readdirSync(TEST_PLUGINS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(resolve(TEST_PLUGINS_DIR, d.name, 'server', 'index.ts')))
    .map((d) => d.name)
    .sort()
}

/** The folder of a loaded plugin (plugins/<id>, or a test plugin's). */
export function pluginDir(id: string): string {
  return testPluginIds().includes(id) ? resolve(TEST_PLUGINS_DIR, id) : resolve(PLUGINS_DIR, id)
}

export interface LoadedDefinition {
  id: string
  definition?: PluginDefinition
  /** Why the plugin could not be imported, when it could not. */
  error?: string
}

let cache: Promise<LoadedDefinition[]> | undefined

/** Imports each enabled plugin's definition (plugins/<id>/server/index.ts). Failures are kept, not thrown. */
export function loadDefinitions(): Promise<LoadedDefinition[]> {
  cache ??= Promise.all(
    [...enabledPluginIds(), ...testPluginIds()].map(async (id): Promise<LoadedDefinition> => {
      const entry = resolve(pluginDir(id), 'server', 'index.ts')
      try {
        if (!existsSync(entry)) throw new Error(`${entry} not found`)
        const module = (await import(pathToFileURL(entry).href)) as { default?: PluginDefinition }
        const definition = module.default
        if (!definition || definition.id !== id) {
          throw new Error(`the default export must be definePlugin({ id: '${id}', ... })`)
        }
        return { id, definition }
      } catch (error) {
        return { id, error: error instanceof Error ? error.message : String(error) }
      }
    })
  )
  return cache
}

/**
 * Migration folders of the enabled plugins that import cleanly (used by config/database.ts), relative
 * to core/server: Lucid records migrations by path, so a relative one keeps them recognised when the
 * installation moves.
 */
export async function migrationPaths(): Promise<string[]> {
  const loaded = await loadDefinitions()
  return loaded.flatMap((p) => (p.definition?.migrations ? [relative(SERVER_ROOT, p.definition.migrations)] : []))
}

/**
 * The enabled plugins' programs (their package's `./programs` export: `tramita agent`), found without
 * booting the app, since a program runs without it (on another computer, say).
 */
export async function pluginPrograms(): Promise<{ plugin: string; program: PluginProgram }[]> {
  const found: { plugin: string; program: PluginProgram }[] = []
  for (const id of enabledPluginIds()) {
    const entry = pluginExport(PLUGINS_DIR, id, './programs')
    if (!entry) continue
    const module = (await import(pathToFileURL(entry).href)) as { default?: PluginProgram[] }
    for (const program of module.default ?? []) found.push({ plugin: id, program })
  }
  return found
}
