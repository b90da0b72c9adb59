import db from '@adonisjs/lucid/services/db'
import {
  checkSettingsPatch,
  settingsValues,
  type PluginSettings,
  type SettingProblem,
  type SettingsDeclaration,
} from '@tramita/plugin-api'
import { audit } from '#services/audit'

function parse(text: unknown): Record<string, unknown> {
  try {
    const value = JSON.parse(String(text)) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Who changes settings: a user (an administrator, or the plugin's principal), from an address. */
export interface SettingsAuthor {
  userId: number | null
  /** The administrator behind an impersonation session, kept in the audit entry. */
  impersonatorId?: number | null
  ip?: string | null
}

/** One key's change, as the audit log keeps it. */
export interface SettingChange {
  key: string
  old: unknown
  new: unknown
}

/** A patch that does not fit the declaration: nothing was saved. */
export class SettingsRefusal extends Error {
  constructor(readonly problems: SettingProblem[]) {
    super(`settings refused: ${problems.map((p) => `${p.key} (${p.reason})`).join(', ')}`)
    this.name = 'SettingsRefusal'
  }
}

async function savedSettings(pluginId: string, client: Pick<typeof db, 'from'> = db) {
  return parse((await client.from('plugin_settings').where('plugin', pluginId).first())?.value ?? '{}')
}

/** A plugin's values: its declaration's defaults under what was saved (read each time: every node sees a change). */
export async function currentSettings(pluginId: string, declaration: SettingsDeclaration) {
  return settingsValues(declaration, await savedSettings(pluginId))
}

/**
 * Saves a patch of a plugin's settings, checked against its declaration first (SettingsRefusal, nothing
 * saved). The row is read and rewritten under its lock in one transaction, with the audit entry
 * (who, each key's old and new value): two saves at once each keep the other's keys. A patch that
 * changes nothing writes nothing.
 */
export async function saveSettings(
  pluginId: string,
  declaration: SettingsDeclaration,
  patch: Record<string, unknown>,
  by: SettingsAuthor
): Promise<{ values: Record<string, unknown>; changes: SettingChange[] }> {
  const checked = checkSettingsPatch(declaration, patch)
  if (!checked.ok) throw new SettingsRefusal(checked.problems)
  // The row exists before the transaction locks it: two first saves inside transactions would each
  // take a gap lock and then block each other's insert (a deadlock on MariaDB).
  await db
    .knexQuery()
    .table('plugin_settings')
    .insert({ plugin: pluginId, value: '{}', updated_by: null, updated_at: new Date() })
    .onConflict('plugin')
    .ignore()
  return db.transaction(async (trx) => {
    const row = await trx.knexQuery().from('plugin_settings').where('plugin', pluginId).forUpdate().first('value')
    const saved = parse(row?.value ?? '{}')
    const before = settingsValues(declaration, saved)
    const changes = Object.entries(patch)
      .filter(([key, value]) => before[key] !== value)
      .map(([key, value]) => ({ key, old: before[key], new: value }))
    if (changes.length === 0) return { values: before, changes }
    // Only declared keys are kept: a key a plugin no longer declares leaves with the next save.
    const next = Object.fromEntries(
      Object.entries({ ...saved, ...patch }).filter(([key]) => Object.hasOwn(declaration, key))
    )
    await trx
      .knexQuery()
      .from('plugin_settings')
      .where('plugin', pluginId)
      .update({ value: JSON.stringify(next), updated_by: by.userId, updated_at: new Date() })
    await audit(
      {
        actorId: by.userId,
        action: 'plugin_settings.update',
        subjectType: 'plugin',
        subjectId: pluginId,
        data: by.impersonatorId ? { changes, impersonator: by.impersonatorId } : { changes },
        ip: by.ip ?? null,
      },
      trx
    )
    return { values: settingsValues(declaration, next), changes }
  })
}

/** A plugin's `ctx.settings`: its values, and changes checked and audited as an administrator's are. */
export function pluginSettings(pluginId: string, declaration: SettingsDeclaration): PluginSettings {
  return {
    get: () => currentSettings(pluginId, declaration),
    async set(patch, by) {
      const author = { userId: by.userId, impersonatorId: by.impersonatorId }
      return (await saveSettings(pluginId, declaration, patch, author)).values
    },
  }
}
