import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import type { ApiResponse } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import { PDFDocument } from 'pdf-lib'
import { indexText } from '../../server/search/text.js'
import { LIBRARY_ROUTES, libraryPath, type FolderRow, type LibraryRouteName } from '../../shared/library.js'
import { call, fail, resetSharing, type Client, type Person } from './sharing_fixtures.js'

/** Fixtures of the library tests, over the sharing tests' people and calls. */

export { areaWith, call, fail, person, roleId, text, type Client, type Person } from './sharing_fixtures.js'

export async function resetLibrary(): Promise<void> {
  for (const table of [
    'documents_ocr_pages',
    'documents_ocr_runs',
    'documents_labels',
    'documents_quotas',
    'documents_owner_locks',
    'documents_search',
  ]) {
    await db.from(table).delete()
  }
  await db.from('plugin_settings').where('plugin', 'documents').delete()
  await resetSharing()
  // Sub-indexes first, as with folders: MariaDB refuses a self-referencing delete order.
  await db.from('documents_indexes').whereNotNull('parent_id').delete()
  await db.from('documents_indexes').delete()
}

/**
 * Every owner's running total of bytes (server/library/usage.ts) equals what their rows name, counted
 * here from the rows: each stored object once.
 */
export async function assertUsageCounted(assert: Assert): Promise<void> {
  const kept = new Map<number, number>()
  for (const row of await db.from('documents_owner_locks').select('user_id', 'bytes_used')) {
    kept.set(Number(row.user_id), Number(row.bytes_used))
  }
  const counted = new Map<number, number>()
  const objects = await db
    .from('documents_versions as v')
    .join('documents_files as f', 'f.id', 'v.file_id')
    .distinct('f.owner_id', 'v.storage_key', 'v.size')
  for (const row of objects)
    counted.set(Number(row.owner_id), (counted.get(Number(row.owner_id)) ?? 0) + Number(row.size))
  for (const owner of new Set([...kept.keys(), ...counted.keys()])) {
    assert.equal(kept.get(owner) ?? 0, counted.get(owner) ?? 0, `bytes kept for owner ${owner}`)
  }
}

/** One of the library's routes, by name, as the web client calls it. */
export function api(
  client: Client,
  name: LibraryRouteName,
  token: string | null,
  params: Record<string, string | number> = {},
  fields: Record<string, unknown> = {}
) {
  const method = LIBRARY_ROUTES[name].method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
  return call(client, method, libraryPath(name, params), token, fields)
}

export interface UploadFile {
  name: string
  bytes: Buffer | Uint8Array
}

/** A multipart upload of files (field `files`) with form fields. */
export function uploadFiles(client: Client, token: string, files: UploadFile[], fields: Record<string, string> = {}) {
  let request = client.post(LIBRARY_ROUTES.upload.path).header('token', token).field('case', 'POST')
  for (const [name, value] of Object.entries(fields)) request = request.field(name, value)
  for (const file of files) request = request.file('files', Buffer.from(file.bytes), { filename: file.name })
  return request
}

/** A refusal with this status and exactly this plugin text (`documents.<key>`). */
export function assertFail(response: ApiResponse, status: number, key: string): void {
  response.assertBody(fail(key.replace(/^documents\./, '')))
  response.assertStatus(status)
}

export const txt = (text: string): UploadFile['bytes'] => Buffer.from(text, 'utf8')

/** A real PDF of `pages` pages. */
export async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`page ${i + 1}`)
  return doc.save()
}

/** A Windows program's header (MZ … PE): the core's upload checks refuse it. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)])

export async function settings(values: Record<string, unknown>): Promise<void> {
  await db.from('plugin_settings').where('plugin', 'documents').delete()
  await db
    .table('plugin_settings')
    .insert({ plugin: 'documents', value: JSON.stringify(values), updated_by: null, updated_at: new Date() })
}

export async function quota(userId: number, bytes: number): Promise<void> {
  await db.from('documents_quotas').where('user_id', userId).delete()
  await db.table('documents_quotas').insert({ user_id: userId, bytes })
}

/** Row counts of the library's tables, to show a refused call changed nothing. */
export async function libraryCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of [
    'documents_folders',
    'documents_files',
    'documents_versions',
    'documents_labels',
    'documents_file_labels',
    'documents_comments',
    'documents_recent',
  ]) {
    const row = await db.from(table).count('* as n').first()
    out[table] = Number(row?.n ?? 0)
  }
  return out
}

/** Every storage key the library's rows name. */
export async function storedKeys(): Promise<string[]> {
  const rows = await db.from('documents_versions').select('storage_key')
  return [...new Set(rows.map((r) => String(r.storage_key)))].sort()
}

export async function objectExists(key: string): Promise<boolean> {
  return drive.use().exists(key)
}

/** The files in the plugin's storage folder of this month (what an upload wrote), for "nothing stored". */
export async function storageObjects(): Promise<string[]> {
  const now = new Date()
  const prefix = `plugins/documents/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
  const listed = await drive.use().listAll(prefix, { recursive: true })
  const keys: string[] = []
  for (const item of listed.objects) if (item.isFile) keys.push(item.key)
  return keys.sort()
}

/** The search row of a file (name and labels), or null. */
export async function searchRow(fileId: number): Promise<{ name: string; labels: string } | null> {
  const mysql = db.connection().dialect.name === 'mysql'
  const rows = await db.rawQuery(`SELECT name, labels FROM documents_search WHERE ${mysql ? 'file_id' : 'rowid'} = ?`, [
    fileId,
  ])
  const list = (mysql ? rows[0] : rows) as { name: string; labels: string }[]
  return list[0] ?? null
}

/** A search row as the search area writes it (search/text.ts). */
export function indexed(name: string, labels: string): { name: string; labels: string } {
  return { name: indexText(name), labels: indexText(labels) }
}

/** A folder made through the route (under `parent`, else in the person's root). */
export async function makeFolder(client: Client, who: Person, name: string, parent?: number): Promise<FolderRow> {
  const response = await api(
    client,
    'makeFolder',
    who.token,
    {},
    { name, ...(parent ? { parent_id: String(parent) } : {}) }
  )
  response.assertStatus(200)
  return response.body().data as FolderRow
}
