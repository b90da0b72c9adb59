import type { PluginDb, StoredObject } from '@tramita/plugin-api'
import { extensionOf, numbered } from './names.js'

/**
 * The library rows an import writes: folders, files with their first or next version, and the file's
 * search row. Written here, on the library's tables, until the library area's own functions exist to
 * call instead (fold this into server/library/ then).
 */

interface FolderRow {
  id: number
  name: string
}

/** The folder `name` under `parentId` (null: the owner's root), made when there is none outside the trash. */
export async function folderFor(db: PluginDb, ownerId: number, parentId: number | null, name: string): Promise<number> {
  return db.transaction(async (trx) => {
    const query = trx.table<FolderRow>('folders').select('id').where('name', name).whereNull('trashed_at')
    if (parentId === null) query.whereNull('parent_id').where('creator_id', ownerId)
    else query.where('parent_id', parentId)
    const found = await query.forUpdate().first()
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

/** The first of `name`, `name (2)`, … that no file of the folder outside the trash has. */
async function freeName(db: PluginDb, ownerId: number, folderId: number | null, name: string): Promise<string> {
  const query = db.table<{ name: string }>('files').select('name').whereNull('trashed_at')
  if (folderId === null) query.whereNull('folder_id').where('owner_id', ownerId)
  else query.where('folder_id', folderId)
  const taken = new Set((await query).map((row) => row.name.toLowerCase()))
  for (let n = 1; ; n++) {
    const candidate = numbered(name, n)
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}

/** Replaces the file's row in the full-text table (its name; labels and metadata start empty). */
async function indexName(db: PluginDb, fileId: number, name: string): Promise<void> {
  await db.raw('DELETE FROM documents_search WHERE file_id = ?', [fileId])
  await db.raw("INSERT INTO documents_search (file_id, name, labels, metadata, body) VALUES (?, ?, '', '', '')", [
    fileId,
    name,
  ])
}

/** A new file (version 1) in the folder, inside the caller's transaction; answers its id. */
export async function insertFile(
  trx: PluginDb,
  ownerId: number,
  folderId: number | null,
  wanted: string,
  stored: StoredObject
): Promise<{ id: number; name: string }> {
  const name = await freeName(trx, ownerId, folderId, wanted)
  const now = new Date()
  const [id] = await trx.table('files').insert({
    folder_id: folderId,
    owner_id: ownerId,
    name,
    extension: extensionOf(name),
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    current_version: 1,
    created_at: now,
    updated_at: now,
  })
  await trx.table('versions').insert({
    file_id: id,
    number: 1,
    name,
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    created_by: ownerId,
    created_at: now,
  })
  await indexName(trx, id!, name)
  return { id: id!, name }
}

/**
 * The stored object as the file's next version, inside the caller's transaction; null when the file
 * is gone or in the trash (the caller then imports it as a new file).
 */
export async function addVersion(
  trx: PluginDb,
  fileId: number,
  stored: StoredObject,
  by: number
): Promise<number | null> {
  const file = await trx
    .table<{ id: number; name: string; current_version: number; row_version: number }>('files')
    .select('id', 'name', 'current_version', 'row_version')
    .where('id', fileId)
    .whereNull('trashed_at')
    .forUpdate()
    .first()
  if (!file) return null
  const number = file.current_version + 1
  const now = new Date()
  await trx.table('versions').insert({
    file_id: fileId,
    number,
    name: file.name,
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    created_by: by,
    created_at: now,
  })
  await trx
    .table('files')
    .where('id', fileId)
    .update({
      mime: stored.mime,
      size: stored.size,
      storage_key: stored.key,
      sha256: stored.sha256,
      current_version: number,
      pages: null,
      row_version: file.row_version + 1,
      updated_at: now,
    })
  return number
}
