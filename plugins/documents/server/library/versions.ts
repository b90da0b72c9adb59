import { PluginFailure, type PluginFileAnswer, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import type { FileRow, VersionRow } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { iso } from './fields.js'
import { oneFileRow, peopleRefs } from './rows.js'
import { insertVersion, nextVersion } from './uploads.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

/** One file as listings show it, for a reader. */
export async function fileInfo(deps: Deps, who: PluginPrincipal, fileId: number): Promise<FileRow> {
  const { permission } = await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  return oneFileRow(deps, who.userId, fileId, permission!)
}

/**
 * A file's bytes (a version's, or the current one's), inline for the viewers or as an attachment;
 * opening it puts it at the top of the reader's recent files.
 */
export async function fileContent(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  version: number | null,
  download: boolean
): Promise<PluginFileAnswer> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const file = await deps.db.table('files').select('name', 'current_version', 'trashed_at').where('id', fileId).first()
  if (!file) throw new PluginFailure('documents.access_not_found', 404)
  const row = await deps.db
    .table('versions')
    .select('name', 'mime', 'size', 'storage_key')
    .where('file_id', fileId)
    .where('number', version ?? file.current_version)
    .first()
  if (!row) throw new PluginFailure('documents.version_not_found', 404)
  if (file.trashed_at === null) await recordOpened(deps.db, who.userId, fileId)
  return {
    kind: 'file',
    source: { key: row.storage_key },
    // The document's name; an older version keeps the name it was uploaded with.
    name: version === null ? file.name : row.name,
    mime: row.mime,
    disposition: download ? 'attachment' : 'inline',
    size: Number(row.size),
  }
}

async function recordOpened(db: Deps['db'], userId: number, fileId: number): Promise<void> {
  const now = new Date()
  const updated = await db.table('recent').where('user_id', userId).where('file_id', fileId).update({ opened_at: now })
  if (updated === 0) {
    const ignore = db.dialect === 'mysql' ? 'INSERT IGNORE INTO' : 'INSERT OR IGNORE INTO'
    await db.raw(`${ignore} documents_recent (user_id, file_id, opened_at) VALUES (?, ?, ?)`, [userId, fileId, now])
  }
}

export async function listVersions(deps: Deps, who: PluginPrincipal, fileId: number): Promise<VersionRow[]> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const file = await deps.db.table('files').select('current_version').where('id', fileId).first()
  const rows = await deps.db
    .table('versions')
    .select('number', 'name', 'mime', 'size', 'pages', 'created_at', 'created_by')
    .where('file_id', fileId)
    .orderBy('number', 'desc')
  const people = await peopleRefs(
    deps.people,
    rows.map((r: { created_by: number | null }) => r.created_by)
  )
  return rows.map(
    (r: {
      number: number
      name: string
      mime: string
      size: number | string
      pages: number | null
      created_at: unknown
      created_by: number | null
    }) => ({
      number: r.number,
      name: r.name,
      mime: r.mime,
      size: Number(r.size),
      pages: r.pages,
      created_at: iso(r.created_at),
      created_by: r.created_by === null ? null : (people.get(r.created_by) ?? null),
      current: r.number === file?.current_version,
    })
  )
}

/**
 * Makes an older version's bytes current again, as a new version number (history is never
 * rewritten); the stored object is shared, not copied, so it takes no more room.
 */
export async function restoreVersion(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  number: number
): Promise<FileRow> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'all')
  await deps.db.transaction(async (db) => {
    const file = await db.table('files').select('trashed_at').where('id', fileId).forUpdate().first()
    if (!file || file.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    const old = await db
      .table('versions')
      .select('name', 'mime', 'size', 'storage_key', 'sha256', 'pages')
      .where('file_id', fileId)
      .where('number', number)
      .first()
    if (!old) throw new PluginFailure('documents.version_not_found', 404)
    const version = await nextVersion(db, fileId)
    const now = new Date()
    const stored = { key: old.storage_key, size: Number(old.size), sha256: old.sha256, mime: old.mime }
    await insertVersion(db, who, fileId, version, old.name, stored, old.pages, now)
    await db.table('files').where('id', fileId).update({
      mime: old.mime,
      size: stored.size,
      storage_key: old.storage_key,
      sha256: old.sha256,
      current_version: version,
      pages: old.pages,
      ocr_state: 'none',
      sub_type: null,
      updated_at: now,
    })
    await db.table('files').where('id', fileId).increment('row_version')
  })
  return oneFileRow(deps, who.userId, fileId, 'all')
}
