import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PluginTexts } from '@tramita/plugin-api'
import { createI18n, isLanguage, LANGUAGES, NAMESPACE, pickLanguage, translate, type Language } from '@tramita/i18n'

/**
 * The plugins' texts beside the core's: one i18next instance per language holding the core's shared
 * and server texts plus each plugin's `locales/<lang>.json` under its id (`documents.no_rename`).
 * A plugin's file never overrides a core text (the bundles are merged without overwriting).
 */
type Instance = Awaited<ReturnType<typeof createI18n>>
const instances = new Map<Language, Instance>()
const loaded = new Set<string>()

/** Makes the three instances (once); the plugin host awaits it before any plugin runs. */
export async function prepareTexts(): Promise<void> {
  for (const language of LANGUAGES) {
    if (!instances.has(language)) instances.set(language, await createI18n(language))
  }
}

/** Reads `<pluginDir>/locales/{es,en,zh}.json` once; a missing file leaves that language to Spanish. */
export function loadPluginTexts(pluginId: string, pluginDir: string): void {
  if (loaded.has(pluginId) || instances.size === 0) return
  loaded.add(pluginId)
  for (const language of LANGUAGES) {
    const file = join(pluginDir, 'locales', `${language}.json`)
    if (!existsSync(file)) continue
    const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    for (const instance of instances.values()) {
      instance.addResourceBundle(language, NAMESPACE, { [pluginId]: texts }, true, false)
    }
  }
}

/** Is `key` a text (a plugin's or the core's)? */
export function isText(key: string): boolean {
  return instances.get('es')?.exists(key) ?? false
}

/** A plugin's or the core's text; unknown keys come back as the key. */
export function pluginText(language: Language | string, key: string, params?: Record<string, unknown>): string {
  const lang = isLanguage(language) ? language : pickLanguage(language)
  const instance = instances.get(lang)
  return instance ? String(instance.t(key, params ?? {})) : translate(lang, key, params)
}

/** `t(lang, 'documents.no_rename')`, or `t(lang, 'no_rename')` for the plugin's own key; then the core's. */
export function pluginTexts(pluginId: string, pluginDir: string): PluginTexts {
  loadPluginTexts(pluginId, pluginDir)
  return {
    t(language, key, params) {
      const own = `${pluginId}.${key}`
      return pluginText(language, !key.startsWith(`${pluginId}.`) && isText(own) ? own : key, params)
    },
  }
}
