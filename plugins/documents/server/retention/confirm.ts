import { createHmac, timingSafeEqual } from 'node:crypto'
import {
  PluginFailure,
  type PluginDb,
  type PluginFileAnswer,
  type PluginPrincipal,
  type PluginServices,
} from '@tramita/plugin-api'
import {
  DISPOSITIONS,
  RETENTION_LIMITS,
  retentionPath,
  type ConfirmAnswer,
  type ConservationCard,
  type Disposition,
  type RetentionLabel,
} from '../../shared/retention.js'
import type { OcrDetails } from '../../shared/ocr.js'
import { ocrDetails, subType } from '../ocr/service.js'
import { iso } from '../library/fields.js'
import { deleteTrashed, queuePurge } from '../library/trash.js'
import { dateOf } from './due.js'

/**
 * The public side of a confirmation (spec 001 §2, §4, §7): the conservation card a code opens, its
 * preview, and the one decision the code allows. A code is bound to its document and its user, expires,
 * and is used once: the decision re-reads it under lock in the transaction that acts, so of two at once
 * one acts and the other is told the code was used. Reading the card changes nothing.
 */

export type ConfirmDeps = Pick<PluginServices, 'db' | 'tokens' | 'http' | 'jobs' | 'audit'>

const fail = (key: string, status: number) => new PluginFailure(`documents.${key}`, status)

interface Snapshot {
  code: string
  serie: string
  subserie: string
  doc_type: string
  disposition: Disposition
  labels: RetentionLabel[]
}

interface OpenRequest {
  id: number
  fileId: number
  userId: number
  codeHash: string
  expiresAt: Date
  schedule: Snapshot
  scheduleId: number | null
}

/** The user of the query: a user id. */
function userOf(value: string | undefined): number | null {
  const text = (value ?? '').trim()
  return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null
}

function parseSnapshot(text: unknown): Snapshot {
  try {
    const value = JSON.parse(String(text)) as Partial<Snapshot>
    return {
      code: String(value.code ?? ''),
      serie: String(value.serie ?? ''),
      subserie: String(value.subserie ?? ''),
      doc_type: String(value.doc_type ?? ''),
      disposition: value.disposition === 'delete' ? 'delete' : 'archive',
      labels: Array.isArray(value.labels) ? value.labels : [],
    }
  } catch {
    return { code: '', serie: '', subserie: '', doc_type: '', disposition: 'archive', labels: [] }
  }
}

/**
 * The open request a row is, checked: its user, unused, not expired, its document there, out of the trash
 * and not archived. Unknown codes and another user's are the same 404 (a code reveals nothing to others).
 */
async function checked(db: PluginDb, row: any, userId: number | null, now: Date, lock: boolean): Promise<OpenRequest> {
  if (!row || userId === null || Number(row.user_id) !== userId) throw fail('retention_code_unknown', 404)
  if (row.used_at !== null) throw fail('retention_code_used', 409)
  const expiresAt = dateOf(row.expires_at)
  if (expiresAt <= now) throw fail('retention_code_expired', 410)
  if (row.file_id === null) throw fail('retention_document_gone', 404)
  const query = db.table('files').select('id', 'trashed_at', 'archived_at').where('id', row.file_id)
  const file = await (lock ? query.forUpdate() : query).first()
  if (!file || file.trashed_at !== null) throw fail('retention_document_gone', 404)
  if (file.archived_at !== null) throw fail('retention_code_used', 409)
  return {
    id: Number(row.id),
    fileId: Number(row.file_id),
    userId,
    codeHash: String(row.code_hash),
    expiresAt,
    schedule: parseSnapshot(row.schedule),
    scheduleId: row.schedule_id === null ? null : Number(row.schedule_id),
  }
}

async function requestByCode(
  deps: Pick<ConfirmDeps, 'db' | 'tokens'>,
  db: PluginDb,
  code: unknown,
  user: string | undefined,
  now: Date,
  lock = false
): Promise<OpenRequest> {
  if (typeof code !== 'string' || code.length < 16 || code.length > 200) throw fail('retention_code_unknown', 404)
  const query = db.table('retention_requests').where('code_hash', deps.tokens.hash(code))
  const row = await (lock ? query.forUpdate() : query).first()
  return checked(db, row, userOf(user), now, lock)
}

/** The preview's address: the request and an end, signed with the code's hash (only the code's holder has it). */
function previewGrant(request: OpenRequest, now: Date): string {
  const until = now.getTime() + RETENTION_LIMITS.previewMinutes * 60_000
  const body = `${request.id}.${until}`
  return `${body}.${mac(request.codeHash, body)}`
}

function mac(key: string, body: string): string {
  return createHmac('sha256', key).update(`retention-preview:${body}`).digest('base64url')
}

/** The latest finished OCR run of the file's current version, its pages counted by result (zeros: none). */
async function pageDetails(db: PluginDb, fileId: number, version: number): Promise<OcrDetails> {
  const run = await db
    .table('ocr_runs')
    .select('id')
    .where('file_id', fileId)
    .where('version', version)
    .where('state', 'done')
    .orderBy('id', 'desc')
    .first()
  return ocrDetails(db, run ? Number(run.id) : 0)
}

/** Spec 001 §7 GET /confirmretention/document/{code}?user=: the conservation card. Reads only. */
export async function conservationCard(
  deps: Pick<ConfirmDeps, 'db' | 'tokens' | 'http'>,
  code: unknown,
  user: string | undefined,
  now = new Date()
): Promise<ConservationCard> {
  const request = await requestByCode(deps, deps.db, code, user, now)
  const file = await deps.db
    .table('files')
    .select('id', 'name', 'mime', 'size', 'pages', 'sub_type', 'current_version', 'updated_at')
    .where('id', request.fileId)
    .first()
  const details = await pageDetails(deps.db, request.fileId, Number(file.current_version))
  // The schedule's labels, then the person's own on the document (spec 001 §3: name and colour).
  const own = (await deps.db
    .table('labels')
    .select('name', 'color')
    .where('owner_id', request.userId)
    .whereIn('id', deps.db.table('file_labels').select('label_id').where('file_id', request.fileId))
    .orderBy('name')) as RetentionLabel[]
  const labels = [...request.schedule.labels]
  for (const label of own) {
    if (!labels.some((l) => l.name.toLowerCase() === label.name.toLowerCase()))
      labels.push({ name: label.name, color: label.color })
  }
  const { code: scheduleCode, serie, subserie, doc_type, disposition } = request.schedule
  return {
    name: String(file.name),
    weight: Number(file.size),
    mime: String(file.mime),
    preview_url: deps.http.url(retentionPath('preview', { grant: previewGrant(request, now) })),
    sub_type: subType(file.sub_type),
    total_page: file.pages === null ? null : Number(file.pages),
    last_modification: iso(file.updated_at),
    details,
    pages: {
      skipped: details.skip,
      with_ocr: details.ocr,
      without_ocr: details.scan,
      errors: details.without_internet + details.bad_response + details.internal_error,
    },
    retention: { code: scheduleCode, serie, subserie, doc_type, disposition },
    labels,
    expires_at: request.expiresAt.toISOString(),
  }
}

/** The card's preview: the current version inline, while the grant lasts and its code is open. */
export async function servePreview(
  deps: Pick<ConfirmDeps, 'db'>,
  grant: string,
  now = new Date()
): Promise<PluginFileAnswer> {
  const expired = () => fail('retention_preview_expired', 404)
  const match = /^([1-9]\d{0,9})\.(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(grant)
  if (!match) throw expired()
  const [, id, until, signature] = match
  if (Number(until) <= now.getTime()) throw expired()
  const row = await deps.db.table('retention_requests').where('id', Number(id)).first()
  if (!row) throw expired()
  const expected = Buffer.from(mac(String(row.code_hash), `${id}.${until}`))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw expired()
  const request = await checked(deps.db, row, Number(row.user_id), now, false).catch(() => {
    throw expired()
  })
  const file = await deps.db
    .table('files')
    .select('name', 'mime', 'size', 'storage_key')
    .where('id', request.fileId)
    .first()
  return {
    kind: 'file',
    source: { key: String(file.storage_key) },
    name: String(file.name),
    mime: String(file.mime),
    disposition: 'inline',
    size: Number(file.size),
  }
}

export interface ConfirmRequest {
  code: unknown
  user: string | undefined
  option: string | undefined
  ip: string
}

/** The person behind a code, as the audit log records who acted. */
function actor(userId: number): PluginPrincipal {
  return { userId, roles: [], roleIds: [], areaIds: [], impersonatorId: null, language: 'es' }
}

/**
 * Spec 001 §7 PUT /confirmretention?user=: delete or archive, once. Archive makes the document read-only
 * (search and listings still find it); delete removes it, its versions and (after the commit, by the
 * purge job) their stored objects, giving the owner's bytes back. Either is written to the audit log.
 */
export async function confirmRetention(
  deps: ConfirmDeps,
  request: ConfirmRequest,
  now = new Date()
): Promise<ConfirmAnswer> {
  const option = request.option?.trim() as Disposition
  if (!DISPOSITIONS.includes(option)) throw fail('retention_bad_option', 400)
  const done = await deps.db.transaction(async (db) => {
    const open = await requestByCode(deps, db, request.code, request.user, now, true)
    const used = await db
      .table('retention_requests')
      .where('id', open.id)
      .whereNull('used_at')
      .update({ used_at: now, outcome: option, open_file_id: null, used_ip: request.ip.slice(0, 64) })
    if (used !== 1) throw fail('retention_code_used', 409)
    const file = await db.table('files').select('name', 'owner_id').where('id', open.fileId).first()
    let keys: string[] = []
    if (option === 'archive') {
      await db.table('files').where('id', open.fileId).update({ archived_at: now, archived_by: open.userId })
    } else {
      keys = await deleteTrashed(db, { files: [open.fileId], folders: [] })
    }
    return { open, keys, name: String(file.name), ownerId: Number(file.owner_id) }
  })
  await queuePurge(deps.jobs, done.keys)
  await deps.audit.record(
    actor(done.open.userId),
    option === 'delete' ? 'retention_delete' : 'retention_archive',
    { type: 'file', id: done.open.fileId },
    {
      name: done.name,
      owner: done.ownerId,
      confirmed_by: done.open.userId,
      confirmed_at: now.toISOString(),
      schedule_id: done.open.scheduleId,
      schedule_code: done.open.schedule.code,
      serie: done.open.schedule.serie,
      subserie: done.open.schedule.subserie,
      doc_type: done.open.schedule.doc_type,
      request: done.open.id,
      ip: request.ip.slice(0, 64),
    }
  )
  return { option, name: done.name, redirect: '/' }
}
