import {
  OCR_CAPABILITY,
  PluginFailure,
  type Language,
  type PluginContext,
  type PluginStagedFile,
  type PluginUpload,
  type UploadRefusal,
} from '@tramita/plugin-api'
import { PRINT_EVENT, SCAN_EVENT, type PrintEvent, type ScanEvent } from '../../shared/devices.js'
import type { AgentMessage, JobFailure, JobOrder } from '../../shared/protocol.js'

/** The job that OCRs a scan before it goes to its field (jobs/ocr_scan.ts). */
export const OCR_SCAN_JOB = 'devices:ocr_scan'

/**
 * A job's end, once: the agent's result (a print done or failed, a scan failed), a scan's upload, or
 * the agent revoked. Each moves the job from `sent` under a row lock, so a result that arrives twice
 * (resent after a lost ack, or by a job run twice) changes nothing the second time, and the person who
 * asked hears of it once, in their language, on their sockets.
 */

export type ResultCtx = Pick<
  PluginContext,
  'db' | 'sockets' | 'storage' | 'texts' | 'people' | 'caseFiles' | 'logger' | 'capabilities' | 'jobs'
>

export interface JobRecord {
  id: string
  kind: 'print' | 'scan'
  agent_id: number
  user_id: number
  form_key: string | null
  field: string | null
  token_form: string | null
  orders: string
  /** processing: a scan received and being OCR'd (jobs/ocr_scan.ts) before it goes to its field. */
  status: 'sent' | 'processing' | 'done' | 'failed' | 'cancelled'
  result: string | null
}

/** The agent's jobs still to do, oldest first (sent again at each hello); none placed before `since` (expired). */
export async function unfinishedOrders(db: PluginContext['db'], agentId: number, since: Date): Promise<JobOrder[]> {
  const rows = (await db
    .table('jobs')
    .where('agent_id', agentId)
    .where('status', 'sent')
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .select('orders')) as Pick<JobRecord, 'orders'>[]
  return rows.map((row) => JSON.parse(row.orders) as JobOrder)
}

/**
 * Moves a job of this agent from `from` (sent, or processing: a scan being OCR'd) to its next status;
 * null when it was not there (ended already, or not this agent's).
 */
export async function settle(
  ctx: Pick<ResultCtx, 'db'>,
  agentId: number | null,
  id: string,
  end: { status: JobRecord['status']; error?: JobFailure | null; detail?: string | null; result?: unknown },
  from: 'sent' | 'processing' = 'sent'
): Promise<JobRecord | null> {
  return ctx.db.transaction(async (trx) => {
    const job = (await trx.table('jobs').where('id', id).forUpdate().first()) as JobRecord | null
    if (!job || job.status !== from || (agentId !== null && Number(job.agent_id) !== agentId)) return null
    await trx
      .table('jobs')
      .where('id', id)
      .update({
        status: end.status,
        error: end.error ?? null,
        detail: end.detail?.slice(0, 500) ?? null,
        result: end.result === undefined ? null : JSON.stringify(end.result),
        updated_at: new Date(),
      })
    return job
  })
}

export async function languageOf(ctx: Pick<ResultCtx, 'people'>, userId: number) {
  return (await ctx.people.byIds([userId])).get(userId)?.language ?? 'es'
}

/** The print's files are not needed once it ended: removed from storage (a second removal is harmless). */
async function dropFiles(ctx: ResultCtx, jobId: string): Promise<void> {
  const files = (await ctx.db.table('job_files').where('job_id', jobId).select('storage_key')) as {
    storage_key: string
  }[]
  for (const file of files) await ctx.storage.delete(file.storage_key)
  await ctx.db.table('job_files').where('job_id', jobId).delete()
}

export async function tell(
  ctx: ResultCtx,
  job: JobRecord,
  end: { status: 'done' | 'failed'; error?: JobFailure | null }
) {
  const language = await languageOf(ctx, Number(job.user_id))
  const to = { userId: Number(job.user_id) }
  if (job.kind === 'print') {
    const key = end.status === 'done' ? 'devices.print.done' : `devices.error.${end.error ?? 'print_error'}`
    const data: PrintEvent = {
      status: end.status,
      data: { job: job.id, token_form: job.token_form },
      message: ctx.texts.t(language, key),
    }
    await ctx.sockets.publish(to, { case: PRINT_EVENT, data })
    return
  }
  const data: ScanEvent = {
    token_form: job.token_form ?? '',
    status: 'fail',
    error: end.error === 'agent_off' ? undefined : (end.error ?? 'scan_error'),
    message: ctx.texts.t(language, `devices.error.${end.error ?? 'scan_error'}`),
  }
  await ctx.sockets.publish(to, { case: SCAN_EVENT, data })
}

/** An agent's result message: a print's outcome, or a scan that failed. */
export async function applyResult(
  ctx: ResultCtx,
  agentId: number,
  message: Extract<AgentMessage, { type: 'result' }>
): Promise<void> {
  if (message.status === 'done') {
    // A scan's success arrives as its upload: a "done" without one is not believed (the job still waits).
    const kind = (await ctx.db.table('jobs').select('kind').where('id', message.id).first())?.kind
    if (kind === 'scan') {
      ctx.logger.warn(`devices: agent ${agentId} said scan ${message.id} was done without sending it`)
      return
    }
  }
  const job = await settle(ctx, agentId, message.id, {
    status: message.status,
    error: message.status === 'failed' ? (message.error ?? null) : null,
    detail: message.detail ?? null,
  })
  if (!job) return
  if (job.kind === 'print') await dropFiles(ctx, job.id)
  await tell(ctx, job, { status: message.status, error: message.error ?? null })
}

/** Jobs failed because their agent was revoked: their people are told, their files dropped. */
export async function tellFailed(ctx: ResultCtx, jobIds: string[]): Promise<void> {
  for (const id of jobIds) {
    const job = (await ctx.db.table('jobs').where('id', id).first()) as JobRecord | null
    if (!job) continue
    if (job.kind === 'print') await dropFiles(ctx, id)
    await tell(ctx, job, { status: 'failed', error: 'agent_off' })
  }
}

/**
 * A scan's file, uploaded by its agent: staged as the asker's file for the job's form field (checked as
 * an upload for that field is), the job done, and the asker told on their sockets (scanforms_upload).
 * A scan asked with `ocr` is kept and handed to the OCR job first (jobs/ocr_scan.ts), which does the
 * rest. The same upload again (the agent did not hear the answer) answers what the first one did.
 */
export async function finishScan(
  ctx: ResultCtx,
  agentId: number,
  jobId: string,
  upload: PluginUpload,
  ip: string
): Promise<PluginStagedFile | { processing: true }> {
  const job = (await ctx.db.table('jobs').where('id', jobId).first()) as JobRecord | null
  if (!job || Number(job.agent_id) !== agentId || job.kind !== 'scan') {
    throw new PluginFailure('devices.job_not_found', 404)
  }
  if (job.status === 'done' && job.result) return JSON.parse(job.result) as PluginStagedFile
  if (job.status === 'processing') return { processing: true }
  if (job.status !== 'sent') throw new PluginFailure('devices.job_ended', 409)
  const language = await languageOf(ctx, Number(job.user_id))
  if ((JSON.parse(job.orders) as { ocr?: boolean }).ocr === true && ctx.capabilities.use(OCR_CAPABILITY)) {
    return holdForOcr(ctx, agentId, job, upload, ip, language)
  }
  const stored = await ctx.caseFiles.stage(
    upload,
    { userId: Number(job.user_id), ip },
    { form: job.form_key ?? '', field: job.field ?? '' },
    language
  )
  return deliverScan(ctx, agentId, job, stored, 'sent')
}

/** The scan kept in the plugin's storage and the OCR job queued (once, by its job id). */
async function holdForOcr(
  ctx: ResultCtx,
  agentId: number,
  job: JobRecord,
  upload: PluginUpload,
  ip: string,
  language: Language
): Promise<{ processing: true }> {
  const kept = await ctx.storage.putUpload(upload, language)
  if ('reason' in kept) {
    const failed = await settle(ctx, agentId, job.id, { status: 'failed', error: 'scan_error', detail: kept.message })
    if (failed) await tell(ctx, failed, { status: 'failed', error: 'scan_error' })
    throw new PluginFailure(kept.message, kept.status ?? 400)
  }
  const held = await settle(ctx, agentId, job.id, {
    status: 'processing',
    result: { key: kept.key, mime: kept.mime, name: upload.name, ip },
  })
  if (!held) {
    await ctx.storage.delete(kept.key)
    return { processing: true }
  }
  await ctx.jobs.enqueue(OCR_SCAN_JOB, { jobId: job.id }, { jobId: `ocr-scan-${job.id}` })
  return { processing: true }
}

/**
 * A scan's stored file to its asker: the job done (from `from`) and scanforms_upload sent, or, when the
 * field refused the file, the job failed and the asker told why.
 */
export async function deliverScan(
  ctx: ResultCtx,
  agentId: number | null,
  job: JobRecord,
  stored: PluginStagedFile | UploadRefusal,
  from: 'sent' | 'processing'
): Promise<PluginStagedFile> {
  if ('reason' in stored) {
    const failed = await settle(
      ctx,
      agentId,
      job.id,
      { status: 'failed', error: 'scan_error', detail: stored.message },
      from
    )
    if (failed) await tell(ctx, failed, { status: 'failed', error: 'scan_error' })
    throw new PluginFailure(stored.message, stored.status ?? 400)
  }
  const settled = await settle(ctx, agentId, job.id, { status: 'done', result: stored }, from)
  if (!settled) {
    // Another delivery of the same scan won the race: its file is the job's (this copy is left staged,
    // unreferenced, for the core's hourly clean-up of staged files).
    const now = (await ctx.db.table('jobs').where('id', job.id).first()) as JobRecord | null
    if (now?.status === 'done' && now.result) return JSON.parse(now.result) as PluginStagedFile
    throw new PluginFailure('devices.job_ended', 409)
  }
  const data: ScanEvent = { token_form: job.token_form ?? '', ...stored }
  await ctx.sockets.publish({ userId: Number(job.user_id) }, { case: SCAN_EVENT, data })
  return stored
}
