import { PluginFailure, type PluginDb, type PluginSettings } from '@tramita/plugin-api'
import type { Usage } from '../../shared/library.js'
import { DOCUMENTS_SETTINGS, type DocumentsSettings } from '../../shared/settings.js'

export async function documentsSettings(settings: PluginSettings): Promise<DocumentsSettings> {
  return { ...DOCUMENTS_SETTINGS, ...((await settings.get()) as Partial<DocumentsSettings>) }
}

/** Creates the owner's row (lock and running total) on first use. */
async function ownerRow(db: PluginDb, ownerId: number): Promise<void> {
  const ignore = db.dialect === 'mysql' ? 'INSERT IGNORE INTO' : 'INSERT OR IGNORE INTO'
  await db.raw(`${ignore} documents_owner_locks (user_id) VALUES (?)`, [ownerId])
}

/**
 * Locks the owner's row until the transaction ends (created on first use): what an upload checks
 * (room left, a free name) stays true until it writes. SQLite's single writer serialises anyway.
 */
export async function lockOwner(db: PluginDb, ownerId: number): Promise<void> {
  await ownerRow(db, ownerId)
  await db.table('owner_locks').where('user_id', ownerId).forUpdate().first()
}

/**
 * Bytes an owner's files take, as a running total: each stored object once (a restored version shares
 * its object with the version it restores), the trash included. insertVersion adds an object as it is
 * first named, deleteTrashed takes away what it deletes (the tests recount it from the rows).
 */
export async function bytesUsed(db: PluginDb, ownerId: number): Promise<number> {
  const row = await db.table('owner_locks').select('bytes_used').where('user_id', ownerId).first()
  return Number(row?.bytes_used ?? 0)
}

/** Adds `delta` bytes (negative: frees them) to the owner's running total, in the caller's transaction. */
export async function addBytes(db: PluginDb, ownerId: number, delta: number): Promise<void> {
  if (delta === 0) return
  await ownerRow(db, ownerId)
  await db.table('owner_locks').where('user_id', ownerId).increment('bytes_used', delta)
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
