import { posix } from 'node:path'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { affectedRows } from '#lib/db_result'
import { StorageFull, tooFullFor } from '#lib/disk_space'
import { dataSubdir } from '#lib/paths'

/**
 * The `uploads` table: every file the form runtime receives is recorded `staged` with its uploader,
 * and only a committed save makes it part of a case (`promoted`, see process/attachments.ts). The path
 * a client sees is opaque (`/data/files/<uuid>.<ext>`); the drive key stays on the server.
 */

export const FILE_PATH_PREFIX = '/data/files/'

/** Exactly what this server hands out; anything else (../, %2e, absolute paths, hosts) is not a path of ours. */
const FILE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,10}$/

export interface UploadRow {
  id: number
  path: string
  storage_key: string
  real_name: string
  ext: string
  mime: string
  size: number
  ip: string
  owner_user_id: number | null
  owner_task_id: number | null
  form_id: number | null
  field: string
  foldertype: string
  status: 'staged' | 'promoted' | 'deleted'
  case_id: number | null
  created_at: Date | string
}

/** Who is acting: a signed-in user, or an external assignee through a task link (or both). */
export interface Uploader {
  userId: number | null
  taskId: number | null
}

/** The client path of a drive key (its last segment is the server-generated `<uuid>.<ext>`). */
export function filePathOf(storageKey: string): string {
  return FILE_PATH_PREFIX + posix.basename(storageKey)
}

/** The path if it is one this server could have handed out, else null. */
export function parseFilePath(text: unknown): string | null {
  if (typeof text !== 'string' || !text.startsWith(FILE_PATH_PREFIX)) return null
  return FILE_NAME.test(text.slice(FILE_PATH_PREFIX.length)) ? text : null
}

export async function findUpload(path: string): Promise<UploadRow | null> {
  const row = (await db.from('uploads').where('path', path).first()) as UploadRow | null
  return row ? { ...row, case_id: row.case_id === null ? null : Number(row.case_id) } : null
}

export function isUploader(row: Pick<UploadRow, 'owner_user_id' | 'owner_task_id'>, who: Uploader): boolean {
  return (
    (who.userId !== null && row.owner_user_id === who.userId) ||
    (who.taskId !== null && row.owner_task_id === who.taskId)
  )
}

export type NewUpload = Omit<UploadRow, 'id' | 'status' | 'case_id' | 'created_at'>

/** Records uploads as staged, all or none. */
export async function recordStaged(rows: NewUpload[]): Promise<void> {
  const now = new Date()
  await db.transaction(async (trx) => {
    for (const row of rows) await trx.table('uploads').insert({ ...row, status: 'staged', created_at: now })
  })
}

/**
 * Stores new uploads: the staged rows first, then each object through `write`. A process killed in
 * between leaves a staged row whose object may be missing or whole, and pruneStaged removes both after
 * STAGED_UPLOAD_HOURS; it never leaves an object that no row names (nothing would ever find it).
 * A write that fails takes the request's rows and objects with it.
 */
export async function stageUploads(rows: NewUpload[], write: (row: NewUpload) => Promise<void>): Promise<void> {
  await recordStaged(rows)
  try {
    for (const row of rows) await write(row)
  } catch (error) {
    const keys = rows.map((r) => r.storage_key)
    await db.from('uploads').whereIn('storage_key', keys).where('status', 'staged').update({ status: 'deleted' })
    await deleteObjects(keys)
    await db.from('uploads').whereIn('storage_key', keys).where('status', 'deleted').delete()
    throw (await diskTooFull(rows)) ? new StorageFull(error) : error
  }
}

/**
 * After a failed write, with its partial objects removed: is the local disk too small for these files?
 * The storage library reports a full disk as an aborted stream (its ENOSPC is lost), so the disk is asked.
 */
async function diskTooFull(rows: NewUpload[]): Promise<boolean> {
  if (env.get('DRIVE_DISK', 'fs') !== 'fs') return false
  for (const row of rows) {
    // The object's own folder: it may be a file system of its own.
    if (await tooFullFor(dataSubdir('storage', posix.dirname(row.storage_key)), Number(row.size))) return true
  }
  return false
}

/** Deletes objects from the disk, ignoring ones already gone (a retried removal finds nothing). */
export async function deleteObjects(keys: string[]): Promise<void> {
  const disk = drive.use()
  for (const key of keys) await disk.delete(key)
}

/**
 * Removes a staged upload: marks it `deleted` first (a conditional update, so a save promoting it at
 * the same moment wins or loses cleanly), then deletes the object and the row. False when it was no
 * longer staged.
 */
export async function removeStaged(row: Pick<UploadRow, 'id' | 'storage_key'>): Promise<boolean> {
  const marked = await db.from('uploads').where('id', row.id).where('status', 'staged').update({ status: 'deleted' })
  if (affectedRows(marked) === 0) return false
  await deleteObjects([row.storage_key])
  await db.from('uploads').where('id', row.id).delete()
  return true
}

/**
 * Deletes staged uploads created before `cutoff` (abandoned forms), and retries rows left `deleted`
 * by a removal that failed half-way. Works in batches; returns how many uploads went.
 */
export async function pruneStaged(cutoff: Date, batch = 200): Promise<number> {
  type Stale = Pick<UploadRow, 'id' | 'storage_key'>
  let removed = 0
  for (;;) {
    const stale = (await db
      .from('uploads')
      .whereIn('status', ['staged', 'deleted'])
      .where('created_at', '<', cutoff)
      .orderBy('id')
      .limit(batch)
      .select('id', 'storage_key')) as Stale[]
    if (stale.length === 0) return removed
    const ids = stale.map((r) => r.id)
    // A save may promote one of them between the select and here: only still-staged rows are taken.
    await db.from('uploads').whereIn('id', ids).where('status', 'staged').update({ status: 'deleted' })
    const doomed = (await db
      .from('uploads')
      .whereIn('id', ids)
      .where('status', 'deleted')
      .select('id', 'storage_key')) as Stale[]
    await deleteObjects(doomed.map((r) => r.storage_key))
    const doomedIds = doomed.map((r) => r.id)
    await db.from('uploads').whereIn('id', doomedIds).delete()
    removed += doomed.length
    if (stale.length < batch) return removed
  }
}
