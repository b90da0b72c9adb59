import { PluginFailure, type PluginDb, type PluginSettings } from '@tramita/plugin-api'
import type { Usage } from '../../shared/library.js'
import { DOCUMENTS_SETTINGS, type DocumentsSettings } from '../../shared/settings.js'

export async function documentsSettings(settings: PluginSettings): Promise<DocumentsSettings> {
  return { ...DOCUMENTS_SETTINGS, ...((await settings.get()) as Partial<DocumentsSettings>) }
}

/**
 * Locks the owner's row until the transaction ends (created on first use): what an upload checks
 * (room left, a free name) stays true until it writes. SQLite's single writer serialises anyway.
 */
export async function lockOwner(db: PluginDb, ownerId: number): Promise<void> {
  const ignore = db.dialect === 'mysql' ? 'INSERT IGNORE INTO' : 'INSERT OR IGNORE INTO'
  await db.raw(`${ignore} documents_owner_locks (user_id) VALUES (?)`, [ownerId])
  await db.table('owner_locks').where('user_id', ownerId).forUpdate().first()
}

/** Bytes an owner's files take: each stored object once (a restored version shares its object), trash included. */
export async function bytesUsed(db: PluginDb, ownerId: number): Promise<number> {
  const rows = await db.raw<{ used: number | string | null }>(
    `SELECT COALESCE(SUM(size), 0) AS used FROM (
       SELECT DISTINCT v.storage_key, v.size FROM documents_versions v
       JOIN documents_files f ON f.id = v.file_id WHERE f.owner_id = ?
     ) owned`,
    [ownerId]
  )
  return Number(rows[0]?.used ?? 0)
}

/** The owner's quota in bytes (0: unlimited): their own row, else the plugin's setting. */
export async function quotaOf(db: PluginDb, settings: DocumentsSettings, ownerId: number): Promise<number> {
  const row = await db.table('quotas').select('bytes').where('user_id', ownerId).first()
  return Number(row?.bytes ?? settings.quotaBytes)
}

export async function usageOf(db: PluginDb, settings: DocumentsSettings, ownerId: number): Promise<Usage> {
  return { used: await bytesUsed(db, ownerId), quota: await quotaOf(db, settings, ownerId) }
}

/** Refuses (spec 001 §8: insufficient storage space) when `adding` bytes would pass the quota. */
export function assertRoom(usage: Usage, adding: number): void {
  if (usage.quota > 0 && usage.used + adding > usage.quota) {
    throw new PluginFailure('documents.insufficient_storage', 413)
  }
}
