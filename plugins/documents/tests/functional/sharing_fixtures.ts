import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '../../../../core/server/tests/helpers/auth.js'

/** Fixtures of the sharing tests: users, areas, folders and files written as the library writes them. */

export type Client = Parameters<typeof tokenFor>[0]

const TABLES = [
  'documents_link_accesses',
  'documents_links',
  'documents_shares',
  'documents_recent',
  'documents_file_labels',
  'documents_comments',
  'documents_versions',
  'documents_files',
]

/** The core's platform, loaded at run time: its sources type-check only inside core/server's project. */
const PLATFORM = '../../../../core/server/app/services/platform.js'
type Hub = { start(): Promise<void>; attach(server: unknown): void }

/** Serves /ws on this test process's HTTP server, as the app does outside tests (the test env skips it). */
export async function attachSockets(): Promise<void> {
  const { platform } = (await import(PLATFORM)) as { platform: () => { sockets: Hub } }
  const server = await app.container.make('server')
  await platform().sockets.start()
  platform().sockets.attach(server.getNodeServer()!)
}

export async function resetSharing(): Promise<void> {
  for (const table of TABLES) await db.from(table).delete()
  // Nested folders: children first (the foreign key cascades, but MariaDB refuses a self-referencing delete order).
  await db.from('documents_folders').whereNotNull('parent_id').delete()
  await db.from('documents_folders').delete()
  await resetAuthTables()
}

export interface Person {
  id: number
  token: string
  username: string
  email: string
}

export async function person(client: Client, username: string, role = 'student'): Promise<Person> {
  const user = await makeUser({ username, role })
  return { id: user.id, token: await tokenFor(client, username), username, email: `${username}@example.test` }
}

/** An area with these users in it. */
export async function areaWith(name: string, userIds: number[]): Promise<number> {
  const now = new Date()
  const [id] = await db
    .table('areas')
    .insert({ name: `${name} ${randomUUID().slice(0, 8)}`, color: '#336699', created_at: now, updated_at: now })
  const areaId = Number(id)
  for (const userId of userIds) await db.table('user_areas').insert({ user_id: userId, area_id: areaId })
  return areaId
}

export async function roleId(name: string): Promise<number> {
  return Number((await db.from('roles').where('name', name).firstOrFail()).id)
}

export async function folder(ownerId: number, name: string, parentId: number | null = null): Promise<number> {
  const now = new Date()
  const [id] = await db.table('documents_folders').insert({
    parent_id: parentId,
    type: 'normal',
    name,
    creator_id: ownerId,
    created_at: now,
    updated_at: now,
  })
  return Number(id)
}

/** A file with real stored bytes, under a key of the plugin's storage. */
export async function file(
  ownerId: number,
  name: string,
  opts: { folderId?: number | null; bytes?: string; mime?: string } = {}
): Promise<{ id: number; key: string; bytes: string }> {
  const bytes = opts.bytes ?? `contenido de ${name}`
  const now = new Date()
  const key = `plugins/documents/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.txt`
  await drive.use().put(key, bytes)
  const [id] = await db.table('documents_files').insert({
    folder_id: opts.folderId ?? null,
    owner_id: ownerId,
    name,
    extension: 'txt',
    mime: opts.mime ?? 'text/plain',
    size: Buffer.byteLength(bytes),
    storage_key: key,
    sha256: '0'.repeat(64),
    current_version: 1,
    created_at: now,
    updated_at: now,
  })
  return { id: Number(id), key, bytes }
}

export async function trash(table: 'documents_files' | 'documents_folders', id: number, by: number): Promise<void> {
  await db.from(table).where('id', id).update({ trashed_at: new Date(), trashed_by: by })
}

/** Row counts of the sharing tables, to show a refused call changed nothing. */
export async function sharingCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of ['documents_shares', 'documents_links', 'documents_link_accesses']) {
    const row = await db.from(table).count('* as n').first()
    out[table] = Number(row?.n ?? 0)
  }
  return out
}

type Method = 'get' | 'post' | 'put' | 'delete'

/** A call as the web client makes it: the `case` field, form-data (GET: the query string), the session's token. */
export function call(
  client: Client,
  method: Method,
  url: string,
  token: string | null,
  fields: Record<string, unknown> = {}
) {
  const values: Record<string, string> = { case: method.toUpperCase() }
  for (const [name, value] of Object.entries(fields)) {
    values[name] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  let request = client[method](url)
  if (token) request = request.header('token', token)
  return method === 'get' ? request.qs(values) : request.form(values)
}

/** A text of the plugin (its locale files), filled like the core fills it. */
export function text(language: 'es' | 'en' | 'zh', key: string, params: Record<string, string> = {}): string {
  const texts = JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as Record<
    string,
    string
  >
  return texts[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '')
}

/** The body of a refusal with this plugin text (in Spanish, the language of a call that names none). */
export function fail(key: string) {
  return { status: 'fail', message: text('es', key) }
}
