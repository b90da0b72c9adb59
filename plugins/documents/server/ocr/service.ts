import { PluginFailure, type PluginContext, type PluginFileAnswer, type PluginPrincipal } from '@tramita/plugin-api'
import {
  OCR_MIMES,
  OCR_MODES,
  OCR_PAGE_STATES,
  type OcrDetails,
  type OcrMode,
  type OcrRun,
  type OcrRunState,
  type OcrSubType,
} from '../../shared/ocr.js'
import { iso } from '../library/fields.js'
import { requirePermission } from '../sharing/access.js'

export type OcrServiceDeps = Pick<PluginContext, 'db' | 'people' | 'jobs'>

/** The job that runs one OCR run (ocr/jobs.ts). */
export const OCR_JOB = 'documents:ocr'

export function isOcrMime(mime: string): boolean {
  return (OCR_MIMES as readonly string[]).includes(mime)
}

export function ocrMode(value: string | undefined): OcrMode {
  const mode = (value ?? '').trim() || 'skip'
  if (!(OCR_MODES as readonly string[]).includes(mode)) throw new PluginFailure('documents.ocr_invalid_mode', 400)
  return mode as OcrMode
}

/**
 * Queues an OCR run of a file's current version (the run already queued or running for it, if any, is
 * the answer: asking twice OCRs once). The run row is written first and the job names it, so a job that
 * is lost (the queue was away) is found again by `documents:ocr --pending`.
 */
export async function queueOcr(
  deps: OcrServiceDeps,
  fileId: number,
  mode: OcrMode,
  requestedBy: number | null,
  opts: { enqueue: boolean } = { enqueue: true }
): Promise<{ runId: number; queued: boolean }> {
  const picked = await deps.db.transaction(async (trx) => {
    const file = await trx
      .table('files')
      .select('id', 'mime', 'current_version', 'trashed_at')
      .where('id', fileId)
      .forUpdate()
      .first()
    if (!file || file.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    if (!isOcrMime(String(file.mime))) throw new PluginFailure('documents.ocr_not_supported', 400)
    const open = await trx
      .table('ocr_runs')
      .select('id')
      .where('file_id', fileId)
      .where('version', file.current_version)
      .whereIn('state', ['queued', 'running'])
      .first()
    if (open) return { runId: Number(open.id), queued: false }
    const now = new Date()
    const [id] = await trx.table('ocr_runs').insert({
      file_id: fileId,
      version: file.current_version,
      mode,
      state: 'queued',
      pages_done: 0,
      requested_by: requestedBy,
      created_at: now,
      updated_at: now,
    })
    await trx.table('files').where('id', fileId).update({ ocr_state: 'pending' })
    return { runId: Number(id), queued: true }
  })
  if (picked.queued && opts.enqueue) await enqueueRun(deps, picked.runId)
  return picked
}

/**
 * Runs that are queued or running but have not moved for `staleMs`: the queue lost them (it was away when
 * they were asked for, or its worker died for good). `documents:ocr --pending` runs them.
 */
export async function staleRuns(db: PluginContext['db'], staleMs: number): Promise<number[]> {
  const rows = await db
    .table('ocr_runs')
    .select('id')
    .whereIn('state', ['queued', 'running'])
    .where('updated_at', '<', new Date(Date.now() - staleMs))
    .orderBy('id')
  return rows.map((row) => Number(row.id))
}

/** Hands a run to the queue; one job per run (its id), so enqueueing twice runs it once. */
export async function enqueueRun(deps: Pick<PluginContext, 'jobs'>, runId: number): Promise<void> {
  await deps.jobs.enqueue(OCR_JOB, { runId }, { jobId: `ocr-run-${runId}` })
}

/** POST …/ocr: needs 'all' on the file (OCR is billed and rewrites what search finds). */
export async function startOcr(
  deps: OcrServiceDeps,
  who: PluginPrincipal,
  fileId: number,
  mode: OcrMode
): Promise<OcrRun> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'all')
  const { runId } = await queueOcr(deps, fileId, mode, who.userId)
  return (await runView(deps, runId))!
}

/** GET …/ocr: the latest run of the file's current version, or null. */
export async function ocrStatus(deps: OcrServiceDeps, who: PluginPrincipal, fileId: number): Promise<OcrRun | null> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const file = await deps.db.table('files').select('current_version').where('id', fileId).first()
  if (!file) throw new PluginFailure('documents.access_not_found', 404)
  const latest = await deps.db
    .table('ocr_runs')
    .select('id')
    .where('file_id', fileId)
    .where('version', file.current_version)
    .orderBy('id', 'desc')
    .first()
  return latest ? runView(deps, Number(latest.id)) : null
}

/** A run as screens show it, with its pages counted by result. */
export async function runView(deps: Pick<PluginContext, 'db'>, runId: number): Promise<OcrRun | null> {
  const run = await deps.db.table('ocr_runs').where('id', runId).first()
  if (!run) return null
  const version = await deps.db
    .table('versions')
    .select('ocr_run_id')
    .where('file_id', run.file_id)
    .where('number', run.version)
    .first()
  const file = await deps.db.table('files').select('sub_type').where('id', run.file_id).first()
  return {
    id: Number(run.id),
    file_id: Number(run.file_id),
    version: Number(run.version),
    mode: run.mode,
    state: run.state as OcrRunState,
    pages: run.pages === null ? null : Number(run.pages),
    pages_done: Number(run.pages_done),
    details: await ocrDetails(deps.db, runId),
    sub_type: subType(file?.sub_type),
    searchable: Number(version?.ocr_run_id) === Number(run.id),
    error: run.error ?? null,
    updated_at: iso(run.updated_at),
  }
}

/** A stored badge as the screens show it: anything but ocr or digital is other. */
export function subType(value: unknown): OcrSubType {
  return value === 'ocr' || value === 'digital' ? value : 'other'
}

/** Pages of a run counted by result (spec 001 §3 details), every state present. */
export async function ocrDetails(db: PluginContext['db'], runId: number): Promise<OcrDetails> {
  const details = Object.fromEntries(OCR_PAGE_STATES.map((state) => [state, 0])) as OcrDetails
  const rows = await db.table('ocr_pages').select('state').count('page', 'n').where('run_id', runId).groupBy('state')
  for (const row of rows) if (row.state in details) details[row.state as keyof OcrDetails] = Number(row.n)
  return details
}

/** GET …/ocr/pdf: the searchable PDF made from a version (the current one by default). */
export async function searchablePdf(
  deps: OcrServiceDeps,
  who: PluginPrincipal,
  fileId: number,
  version: number | null,
  download: boolean
): Promise<PluginFileAnswer> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const file = await deps.db.table('files').select('name', 'current_version').where('id', fileId).first()
  if (!file) throw new PluginFailure('documents.access_not_found', 404)
  const row = await deps.db
    .table('versions')
    .select('ocr_key', 'ocr_size')
    .where('file_id', fileId)
    .where('number', version ?? file.current_version)
    .first()
  if (!row?.ocr_key) throw new PluginFailure('documents.ocr_no_pdf', 404)
  const stem = String(file.name).replace(/\.[^.]*$/, '')
  return {
    kind: 'file',
    source: { key: row.ocr_key },
    name: `${stem}.pdf`,
    mime: 'application/pdf',
    disposition: download ? 'attachment' : 'inline',
    size: Number(row.ocr_size),
  }
}
