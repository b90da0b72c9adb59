import db from '@adonisjs/lucid/services/db'
import type { PluginSettings } from '@tramita/plugin-api'

function parse(text: unknown): Record<string, unknown> {
  try {
    const value = JSON.parse(String(text)) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * A plugin's settings: what an administrator saved (plugin_settings) over the definition's defaults.
 * Read from the database each time, so every node sees a change at once. Only keys the defaults
 * declare are kept, so a patch cannot grow the settings with arbitrary keys.
 */
export function pluginSettings(pluginId: string, defaults: Record<string, unknown>): PluginSettings {
  const saved = async (client: Pick<typeof db, 'from'> = db) =>
    parse((await client.from('plugin_settings').where('plugin', pluginId).first())?.value ?? '{}')
  const known = (values: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(defaults, key)))
  return {
    async get() {
      return { ...defaults, ...known(await saved()) }
    },
    async set(patch, by) {
      return db.transaction(async (trx) => {
        const current = known(await saved(trx))
        const next = { ...current, ...known(patch as Record<string, unknown>) }
        const row = { value: JSON.stringify(next), updated_by: by.userId, updated_at: new Date() }
        const updated = await trx.from('plugin_settings').where('plugin', pluginId).update(row)
        if (Number(updated) === 0)
          await trx
            .insertQuery()
            .table('plugin_settings')
            .insert({ plugin: pluginId, ...row })
        return { ...defaults, ...next }
      })
    },
  }
}
