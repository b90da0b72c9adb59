import type { PluginDb, PluginPrincipal, StoredObject } from '@tramita/plugin-api'
import { freeName } from '../library/names.js'
import { insertVersion, nextVersion } from '../library/uploads.js'
import { lockOwner } from '../library/usage.js'
import { extensionOf } from './names.js'

/**
 * The library rows an import writes, with the library's own pieces (free names, version rows, the
 * owner's lock). The library's `upload` is not called as a whole: an import writes its record in the
 * same transaction as the file's rows (so a killed run never imports a file twice) and applies no quota.
 */

/** The folder `name` under `parentId` (null: the owner's root), made when there is none outside the trash. */
export async function folderFor(db: PluginDb, ownerId: number, parentId: number | null, name: string): Promise<number> {
  return db.transaction(async (trx) => {
    await lockOwner(trx, ownerId)
    const query = trx.table<{ id: number }>('folders').select('id').where('name', name).whereNull('trashed_at')
    if (parentId === null) query.whereNull('parent_id').where('creator_id', ownerId)
    else query.where('parent_id', parentId)
    const found = await query.orderBy('id').first()
    if (found) return found.id
    const now = new Date()
    const [id] = await trx.table('folders').insert({
      parent_id: parentId,
      type: 'normal',
      name,
      creator_id: ownerId,
      created_at: now,
      updated_at: now,
    })
    return id!
  })
}

/**
 * A new file (version 1) in the folder, inside the caller's transaction, named as the library names an
 * upload ("name (2).ext" on a clash); answers its id and name. The caller indexes it after the commit.
 */
export async function insertFile(
  trx: PluginDb,
  owner: PluginPrincipal,
  folderId: number | null,
  wanted: string,
  stored: StoredObject,
  pages: number | null
): Promise<{ id: number; name: string }> {
  await lockOwner(trx, owner.userId)
  const name = await freeName(trx, 'files', { folderId, ownerId: owner.userId }, wanted)
  const now = new Date()
  const [id] = await trx.table('files').insert({
    folder_id: folderId,
    owner_id: owner.userId,
    name,
    extension: extensionOf(name),
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    current_version: 1,
    pages,
    created_at: now,
    updated_at: now,
  })
  await insertVersion(trx, owner, id!, 1, name, stored, pages, now)
  return { id: id!, name }
}

/**
 * The stored object as the file's next version, inside the caller's transaction; null when the file
 * is gone or in the trash (the caller then imports it as a new file).
 */
export async function addVersion(
  trx: PluginDb,
  owner: PluginPrincipal,
  fileId: number,
  stored: StoredObject,
  pages: number | null
): Promise<number | null> {
  const file = await trx
    .table<{ name: string; trashed_at: unknown }>('files')
    .select('name', 'trashed_at')
    .where('id', fileId)
    .forUpdate()
    .first()
  if (!file || file.trashed_at !== null) return null
  const number = await nextVersion(trx, fileId)
  const now = new Date()
  await insertVersion(trx, owner, fileId, number, file.name, stored, pages, now)
  await trx.table('files').where('id', fileId).update({
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    current_version: number,
    pages,
    ocr_state: 'none',
    sub_type: null,
    updated_at: now,
  })
  await trx.table('files').where('id', fileId).increment('row_version')
  return number
}
