import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import type { ApiResponse } from '@japa/api-client'
import type { UploadAnswer } from '../../shared/library.js'
import { OPERATIONS_PATHS } from '../../shared/operations.js'
import { api, call, text, uploadFiles, type Client, type Person } from './library_fixtures.js'

/** Fixtures of the operations and search tests, over the library's. */

export type OperationName = keyof typeof OPERATIONS_PATHS

/** One of the spec's operation calls (POST, form-data with `case`), as the action handlers make it. */
export function op(client: Client, who: Person | null, name: OperationName, fields: Record<string, unknown> = {}) {
  return call(client, 'post', OPERATIONS_PATHS[name], who?.token ?? null, fields)
}

/** A refusal with the spec's code (its text in Spanish) and this status. */
export function assertCode(
  response: ApiResponse,
  status: number,
  code: 'no_copy_or_cut' | 'no_rename' | 'no_search'
): void {
  response.assertStatus(status)
  response.assertBodyContains({ status: 'fail', message: text('es', code) })
}

export async function makeFolder(client: Client, who: Person, name: string, parent?: number): Promise<number> {
  const response = await api(
    client,
    'makeFolder',
    who.token,
    {},
    { name, ...(parent ? { parent_id: String(parent) } : {}) }
  )
  response.assertStatus(200)
  return response.body().data.id as number
}

/** Uploads one file through the library's route (its search row written as an upload writes it). */
export async function upload(client: Client, who: Person, name: string, bytes: Uint8Array, folder?: number) {
  const response = await uploadFiles(client, who.token, [{ name, bytes }], folder ? { folder_id: String(folder) } : {})
  response.assertStatus(200)
  const result = (response.body().data as UploadAnswer).results[0]!
  if (result.status !== 'stored') throw new Error(JSON.stringify(result))
  return result.file
}

/** A stored object's bytes. */
export async function objectBytes(key: string): Promise<Buffer> {
  return Buffer.from(await drive.use().getBytes(key))
}

export async function fileRow(id: number) {
  return db.from('documents_files').where('id', id).first()
}

/** Rows of every table an operation may write, and the stored objects, to show a refusal changed nothing. */
export async function snapshot(): Promise<string> {
  const out: Record<string, unknown> = {}
  for (const table of ['documents_folders', 'documents_files', 'documents_versions']) {
    out[table] = (await db.from(table).select('*').orderBy('id')).map((row) => JSON.stringify(row))
  }
  return JSON.stringify(out)
}

/** A share row, as the sharing area writes it. */
export async function share(type: 'file' | 'folder', id: number, userId: number, by: number, permission = 'read') {
  await db.table('documents_shares').insert({
    subject_type: type,
    subject_id: id,
    grantee_type: 'user',
    grantee_id: userId,
    permission,
    created_by: by,
    created_at: new Date(),
  })
}
