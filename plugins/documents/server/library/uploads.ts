import {
  PluginFailure,
  type Language,
  type PluginContext,
  type PluginPrincipal,
  type PluginServices,
  type PluginUpload,
  type StoredObject,
} from '@tramita/plugin-api'
import { LIBRARY_LIMITS, type UploadAnswer, type UploadResult } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { cleanName, freeName } from './names.js'
import { pdfPages } from './pdf_pages.js'
import { oneFileRow } from './rows.js'
import { indexFile } from './search_row.js'
import { isOcrMime, queueOcr } from '../ocr/service.js'
import { addBytes, assertRoom, documentsSettings, lockOwner, usageOf } from './usage.js'

export type UploadDeps = Pick<PluginContext, 'db' | 'storage' | 'people' | 'settings' | 'jobs' | 'logger'>

export interface UploadInput {
  files: PluginUpload[]
  folderId: number | null
  newVersionOf: number | null
  /** A text key in the caller's language (refusals carry their message). */
  t: (key: string) => string
  language: Language
}

/**
 * Stores uploaded files in a folder (or my root), or one file as a new version of a file. Each file
 * is checked and streamed by the core (storage.putUpload); its rows are written in a transaction that
 * holds the owner's lock while it checks the quota and picks a free name ("name (2).ext" on a clash).
 * A refused file leaves nothing stored; the others go on.
 */
export async function upload(deps: UploadDeps, who: PluginPrincipal, input: UploadInput): Promise<UploadAnswer> {
  const { db } = deps
  if (input.files.length === 0) throw new PluginFailure('documents.no_files', 400)
  if (input.files.length > LIBRARY_LIMITS.filesPerUpload) throw new PluginFailure('documents.too_many_files', 400)
  if (input.newVersionOf !== null && input.files.length !== 1) throw new PluginFailure('documents.one_version', 400)
  const access = { db }
  // The destination is checked before any byte is stored.
  let ownerId = who.userId
  if (input.newVersionOf !== null) {
    await requirePermission(access, who, { type: 'file', id: input.newVersionOf }, 'all')
    ownerId = (await db.table('files').select('owner_id').where('id', input.newVersionOf).first()).owner_id
  } else if (input.folderId !== null) {
    await requirePermission(access, who, { type: 'folder', id: input.folderId }, 'all')
  }
  const settings = await documentsSettings(deps.settings)

  const results: UploadResult[] = []
  for (const file of input.files) {
    const refuse = (key: string) =>
      results.push({ name: file.name, status: 'refused', reason: key, message: input.t(key) })
    let name: string
    try {
      name = cleanName(file.name)
    } catch {
      refuse('documents.invalid_name')
      continue
    }
    if (settings.maxUploadBytes > 0 && file.size > settings.maxUploadBytes) {
      refuse('documents.file_too_large')
      continue
    }
    const stored = await deps.storage.putUpload(file, input.language)
    if (!('key' in stored)) {
      results.push({ name: file.name, status: 'refused', reason: stored.reason, message: stored.message })
      continue
    }
    try {
      const pages = await pdfPages(deps.storage, stored)
      const written = await db.transaction(async (trx) => {
        await lockOwner(trx, ownerId)
        assertRoom(await usageOf(trx, settings, ownerId), stored.size)
        return input.newVersionOf !== null
          ? addVersion(trx, who, input.newVersionOf, name, file.extension, stored, pages)
          : addFile(trx, who, input.folderId, name, file.extension, stored, pages)
      })
      await indexFile(db, written.fileId)
      if (settings.ocrOnUpload && isOcrMime(stored.mime)) await ocrAfterUpload(deps, written.fileId, who.userId)
      const row = await oneFileRow(deps, who.userId, written.fileId, 'all')
      results.push({ name: file.name, status: 'stored', file: row, version: written.version })
    } catch (error) {
      // Rows were rolled back: the object they would have named goes too.
      await deps.storage.delete(stored.key)
      if (!(error instanceof PluginFailure)) throw error
      refuse(error.message)
    }
  }
  return { results, usage: await usageOf(db, settings, who.userId) }
}

/**
 * Queues the new file (or version) for OCR when the settings say so. The upload is stored either way: a run
 * the queue did not take stays queued for `documents:ocr --pending`.
 */
async function ocrAfterUpload(deps: UploadDeps, fileId: number, userId: number): Promise<void> {
  try {
    await queueOcr(deps, fileId, 'skip', userId)
  } catch (error) {
    deps.logger.warn(`documents: file ${fileId} was stored but not queued for OCR (${(error as Error).message})`)
  }
}

type Trx = PluginServices['db']

/**
 * A new file's rows (file and version 1) in a folder or the owner's root, under a free name; call it in a
 * transaction holding the owner's lock (lockOwner) after the quota check. The CLI import may use it too.
 */
export async function addFile(
  db: Trx,
  who: PluginPrincipal,
  folderId: number | null,
  requested: string,
  extension: string,
  stored: StoredObject,
  pages: number | null
): Promise<{ fileId: number; version: number }> {
  if (folderId !== null) {
    // Re-read under lock: the folder may have gone to the trash since the check.
    const folder = await db.table('folders').select('trashed_at').where('id', folderId).forUpdate().first()
    if (!folder || folder.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
  }
  const name = await freeName(db, 'files', { folderId, ownerId: who.userId }, requested)
  const now = new Date()
  const [fileId] = await db.table('files').insert({
    folder_id: folderId,
    owner_id: who.userId,
    name,
    // The column holds 20 characters; the stored object's own extension is the core's, shorter still.
    extension: extension.slice(0, 20),
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    current_version: 1,
    pages,
    created_at: now,
    updated_at: now,
  })
  await insertVersion(db, who, fileId, 1, name, stored, pages, now)
  return { fileId, version: 1 }
}

/** A new current version of a file, as `addFile` (in the caller's transaction, the owner locked). */
export async function addVersion(
  db: Trx,
  who: PluginPrincipal,
  fileId: number,
  name: string,
  extension: string,
  stored: StoredObject,
  pages: number | null
): Promise<{ fileId: number; version: number }> {
  const file = await db.table('files').select('trashed_at').where('id', fileId).forUpdate().first()
  if (!file || file.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
  const version = await nextVersion(db, fileId)
  const now = new Date()
  await insertVersion(db, who, fileId, version, name, stored, pages, now)
  await db
    .table('files')
    .where('id', fileId)
    .update({
      extension: extension.slice(0, 20),
      mime: stored.mime,
      size: stored.size,
      storage_key: stored.key,
      sha256: stored.sha256,
      current_version: version,
      pages,
      ocr_state: 'none',
      sub_type: null,
      updated_at: now,
    })
  await db.table('files').where('id', fileId).increment('row_version')
  return { fileId, version }
}

export async function nextVersion(db: Trx, fileId: number): Promise<number> {
  const row = (await db.table('versions').where('file_id', fileId).max('number', 'n')) as { n: number | null }[]
  return Number(row[0]?.n ?? 0) + 1
}

export async function insertVersion(
  db: Trx,
  who: PluginPrincipal,
  fileId: number,
  number: number,
  name: string,
  stored: Pick<StoredObject, 'key' | 'size' | 'sha256' | 'mime'>,
  pages: number | null,
  now: Date
): Promise<void> {
  // Its owner's running total counts each object once: a restored version names one already counted.
  const counted = await db
    .table('versions')
    .select('id')
    .where('file_id', fileId)
    .where('storage_key', stored.key)
    .first()
  if (!counted) {
    const file = await db.table('files').select('owner_id').where('id', fileId).first()
    await addBytes(db, file.owner_id, Number(stored.size))
  }
  await db.table('versions').insert({
    file_id: fileId,
    number,
    name,
    mime: stored.mime,
    size: stored.size,
    storage_key: stored.key,
    sha256: stored.sha256,
    pages,
    created_by: who.userId,
    created_at: now,
  })
}
