import type { PluginDb, PluginPrincipal, StoredObject } from '@tramita/plugin-api'
import type { DocumentsSettings } from '../../shared/settings.js'
import { freeName } from '../library/names.js'
import { insertVersion } from '../library/uploads.js'
import { assertRoom, lockOwner, usageOf } from '../library/usage.js'
import { writeSearchRow } from '../search/index_row.js'
import { failure, type OperationKind } from './failures.js'

export interface NewFile {
  folderId: number | null
  name: string
  extension: string
  mime: string
  stored: StoredObject
  pages: number | null
}

/**
 * Files bytes already stored as a new file of the caller's (the signed-in user is always the creator),
 * inside the caller's transaction: the owner's row locked, the quota checked, the folder re-read (it
 * may have gone to the trash), a free name picked, then the file, its first version and its search row.
 */
export async function insertNewFile(
  db: PluginDb,
  settings: DocumentsSettings,
  who: PluginPrincipal,
  kind: OperationKind,
  file: NewFile
): Promise<number> {
  await lockOwner(db, who.userId)
  assertRoom(await usageOf(db, settings, who.userId), file.stored.size)
  if (file.folderId !== null) {
    const folder = await db.table('folders').select('trashed_at').where('id', file.folderId).forUpdate().first()
    if (!folder || folder.trashed_at !== null) throw failure(kind, 404, 'access_not_found')
  }
  const name = await freeName(db, 'files', { folderId: file.folderId, ownerId: who.userId }, file.name)
  const now = new Date()
  const [fileId] = await db.table('files').insert({
    folder_id: file.folderId,
    owner_id: who.userId,
    name,
    extension: file.extension,
    mime: file.mime,
    size: file.stored.size,
    storage_key: file.stored.key,
    sha256: file.stored.sha256,
    current_version: 1,
    pages: file.pages,
    created_at: now,
    updated_at: now,
  })
  await insertVersion(db, who, fileId!, 1, name, { ...file.stored, mime: file.mime }, file.pages, now)
  await writeSearchRow(db, fileId!)
  return fileId!
}
