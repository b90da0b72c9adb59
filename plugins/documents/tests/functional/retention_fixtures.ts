import db from '@adonisjs/lucid/services/db'
import { retentionJobs } from '../../server/retention/jobs.js'
import { RETENTION_ROUTES, retentionPath, type RetentionRouteName, type ScheduleRow } from '../../shared/retention.js'
import { indexPath } from '../../shared/indexes.js'
import { call, resetLibrary, txt, type Client, type Person } from './library_fixtures.js'
import { upload } from './operations_fixtures.js'
import type { ReceivedMail } from '../../../../core/server/tests/helpers/smtp_listener.js'

/** Fixtures of the retention tests (server/retention/), over the library's. */

/** Empties the retention tables (schedules, their labels, the codes mailed). */
export async function resetRetentionTables(): Promise<void> {
  for (const table of ['documents_retention_requests', 'documents_retention_labels', 'documents_retention_schedules']) {
    await db.from(table).delete()
  }
}

export async function resetRetention(): Promise<void> {
  await resetRetentionTables()
  await resetLibrary()
}

/** A text file uploaded by `who` (into `folder`), its bytes "bytes of <name>". */
export function uploaded(client: Client, who: Person, name: string, folder?: number) {
  return upload(client, who, name, txt(`bytes of ${name}`), folder)
}

/** An index (under `parent`) with one text column, made by `who` → its id. */
export async function makeIndex(client: Client, who: Person, name: string, parent?: number): Promise<number> {
  const response = await call(client, 'post', indexPath('create'), who.token, {
    name,
    ...(parent ? { parent_id: String(parent) } : {}),
    columns: [{ name: 'numero', type: 'text' }],
  })
  response.assertStatus(200)
  return (response.body().data as { id: number }).id
}

/** One of the retention routes, by name, as the web client calls it. */
export function retention(
  client: Client,
  name: RetentionRouteName,
  token: string | null,
  params: Record<string, string | number> = {},
  fields: Record<string, unknown> = {}
) {
  const method = RETENTION_ROUTES[name].method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
  return call(client, method, retentionPath(name, params), token, fields)
}

export const SCHEDULE = {
  code: '100-12.3',
  serie: 'Contratos',
  subserie: 'Contratos de prestación de servicios',
  doc_type: 'Contrato',
  active_years: '2',
  central_years: '8',
  disposition: 'delete',
}

/** A schedule made through the route by an administrator. */
export async function makeSchedule(
  client: Client,
  admin: Person,
  fields: Record<string, unknown> = {}
): Promise<ScheduleRow> {
  const response = await retention(client, 'createSchedule', admin.token, {}, { ...SCHEDULE, ...fields })
  response.assertStatus(200)
  return response.body().data as ScheduleRow
}

export async function assignTo(
  client: Client,
  admin: Person,
  type: 'folder' | 'index' | 'file',
  id: number,
  scheduleId: number | null
) {
  const response = await retention(
    client,
    'assign',
    admin.token,
    {},
    { target_type: type, target_id: String(id), schedule_id: scheduleId === null ? '' : String(scheduleId) }
  )
  response.assertStatus(200)
  return response.body().data
}

/** Makes a file `years` years old (its retention starts at its creation in the library). */
export async function age(fileId: number, years: number): Promise<void> {
  const when = new Date()
  when.setUTCFullYear(when.getUTCFullYear() - years)
  await db.from('documents_files').where('id', fileId).update({ created_at: when })
}

const jobContext = { id: 'test', name: 'documents:retention', attempt: 1, signal: new AbortController().signal }

/** One run of the daily retention job. */
export async function runRetentionJob(): Promise<{ due: number; mailed: number }> {
  const job = retentionJobs.find((j) => j.name === 'retention')!
  return (await job.handle({}, jobContext)) as { due: number; mailed: number }
}

/** The code and user of a confirmation mail's link. */
export function linkOf(mail: ReceivedMail): { code: string; user: string } {
  const match = /\/confirmretention\?code=([A-Za-z0-9_%-]+)&user=(\d+)/.exec(mail.text)
  if (!match) throw new Error(`no confirmation link in: ${mail.text}`)
  return { code: decodeURIComponent(match[1]), user: match[2] }
}

/** GET /confirmretention/document/{code}?user= as the screen calls it. */
export function card(client: Client, code: string, user: string | number) {
  return call(client, 'get', `${retentionPath('card', { code })}`, null, { user: String(user) })
}

/** PUT /confirmretention?user= with case, code and option. */
export function confirm(client: Client, code: string, user: string | number, option: string) {
  return call(client, 'put', `${RETENTION_ROUTES.confirm.path}?user=${user}`, null, { code, option })
}

/** The rows of the retention and library tables, to show a refused call changed nothing. */
export async function retentionSnapshot(): Promise<string> {
  const out: Record<string, unknown[]> = {}
  for (const table of [
    'documents_retention_requests',
    'documents_retention_schedules',
    'documents_retention_labels',
    'documents_files',
    'documents_versions',
    'documents_folders',
  ]) {
    out[table] = await db.from(table).select('*').orderBy('id')
  }
  out.indexes = await db.from('documents_indexes').select('id', 'retention_schedule_id').orderBy('id')
  return JSON.stringify(out)
}
