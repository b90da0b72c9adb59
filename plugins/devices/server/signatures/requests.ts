import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  PluginFailure,
  type PluginContext,
  type PluginPrincipal,
  type PluginStagedFile,
  type PluginUpload,
} from '@tramita/plugin-api'
import {
  DEVICES_ROUTES,
  SIGNATURE_EVENT,
  signatureUploadPath,
  type SignatureEvent,
  type SignatureOpened,
} from '../../shared/devices.js'
import type { SignOrder } from '../../shared/protocol.js'
import { peerIdOf } from '../agents/agents.js'
import { reachableMachine } from '../jobs/orders.js'
import { languageOf } from '../jobs/results.js'
import { looksLikePdf, NotAPdf, renderSignatureBox } from './render.js'

/**
 * Signature requests (spec 000 §7 signing flow). A signed-in person opens one for a signature field of a
 * form: a random token (only its hash kept) that is the whole key of its upload address, so the
 * signing app or pad needs no session. It is good for SIGNATURE_MINUTES and once. The signed PDF's box
 * becomes a PNG staged as the person's upload for that field (as a scan is), and the person's sockets
 * hear `signature_upload_finish` with the token, which the dialog waiting for it matches.
 */

export const SIGNATURE_MINUTES = 10
/** The largest signed PDF taken (a one-page PDF with a drawn signature is far smaller). */
export const SIGNATURE_MAX_BYTES = 10 * 1024 ** 2
const UPLOAD_NAME = /^([A-Za-z0-9_-]{20,100})\.pdf$/

type Ctx = Pick<PluginContext, 'db' | 'tokens' | 'peers' | 'settings' | 'sockets' | 'texts' | 'people' | 'caseFiles'>

interface SignatureRecord {
  id: number
  user_id: number
  form_key: string
  field: string
  machine_id: number | null
  expires_at: Date | string
  used_at: Date | string | null
}

/** Opens a request for `who`; with a machine, its agent's signing pad is asked at once. */
export async function openSignature(
  ctx: Ctx,
  who: PluginPrincipal,
  input: { form?: string; field?: string; machine?: string }
): Promise<SignatureOpened> {
  const field = (input.field ?? '').trim()
  const form = (input.form ?? '').trim()
  if (!field || field.length > 150) throw new PluginFailure('devices.signature.field_missing')
  if (!form || form.length > 64) throw new PluginFailure('devices.form_missing')
  const reachable = input.machine ? await reachableMachine(ctx, who, input.machine, 'sign') : null
  const { token, hash } = ctx.tokens.create()
  const now = new Date()
  const expires = new Date(now.getTime() + SIGNATURE_MINUTES * 60_000)
  await ctx.db.table('signatures').insert({
    token_hash: hash,
    user_id: who.userId,
    form_key: form,
    field,
    machine_id: reachable ? reachable.machine.id : null,
    expires_at: expires,
    created_at: now,
  })
  const opened: SignatureOpened = {
    token,
    template: DEVICES_ROUTES.signatureTemplate.path,
    upload: signatureUploadPath(token),
    expires_at: expires.toISOString(),
  }
  if (reachable?.agent.session) {
    const order: SignOrder = { type: 'sign', token, template: opened.template, upload: opened.upload }
    await ctx.peers.send(peerIdOf(Number(reachable.agent.id), reachable.agent.session), order)
  }
  return opened
}

/** The open request of an upload's file name (`<token>.pdf`), or why there is none (nothing is changed). */
async function openRequest(ctx: Pick<Ctx, 'db' | 'tokens'>, file: string): Promise<SignatureRecord> {
  const token = UPLOAD_NAME.exec(file)?.[1]
  const row = token
    ? ((await ctx.db.table('signatures').where('token_hash', ctx.tokens.hash(token)).first()) as SignatureRecord | null)
    : null
  if (!row) throw new PluginFailure('devices.signature.unknown', 404)
  if (row.used_at) throw new PluginFailure('devices.signature.used', 409)
  if (new Date(row.expires_at).getTime() <= Date.now()) throw new PluginFailure('devices.signature.expired', 410)
  return row
}

/**
 * A signed PDF for the request named by `file`: checked (an open request, a PDF poppler can draw), its
 * box staged as the person's PNG, the request closed, and the person told. Nothing is kept when a
 * check fails; a request closed by a concurrent upload leaves its copy to the core's clean-up of
 * unreferenced staged files.
 */
export async function receiveSignature(
  ctx: Ctx,
  file: string,
  upload: PluginUpload | undefined,
  ip: string
): Promise<{ token: string }> {
  const row = await openRequest(ctx, file)
  if (!upload) throw new PluginFailure('devices.signature.file_missing')
  if (upload.size > SIGNATURE_MAX_BYTES) throw new PluginFailure('devices.signature.too_large', 413)
  if (!(await looksLikePdf(upload.tmpPath))) throw new PluginFailure('devices.signature.not_pdf', 415)
  const token = UPLOAD_NAME.exec(file)![1]!
  const language = await languageOf(ctx, Number(row.user_id))
  const dir = await mkdtemp(join(tmpdir(), 'tramita-signature-'))
  try {
    let png: string
    try {
      png = await renderSignatureBox(upload.tmpPath, dir)
    } catch (error) {
      if (error instanceof NotAPdf) throw new PluginFailure('devices.signature.not_pdf', 415)
      throw error
    }
    const picture: PluginUpload = {
      name: 'firma.png',
      extension: 'png',
      size: (await stat(png)).size,
      clientType: 'image/png',
      tmpPath: png,
    }
    const staged = await ctx.caseFiles.stage(
      picture,
      { userId: Number(row.user_id), ip },
      { form: row.form_key, field: row.field },
      language
    )
    if ('reason' in staged) {
      // The field refuses the picture (its form changed, or it takes no pictures): a retry cannot help,
      // so the request ends and its person, waiting in the dialog, reads why.
      if (await close(ctx, row, null)) await tellFailure(ctx, row, token, staged.message)
      throw new PluginFailure(staged.message, staged.status ?? 400)
    }
    if (!(await close(ctx, row, staged))) throw new PluginFailure('devices.signature.used', 409)
    const data: SignatureEvent = { token, ...staged }
    await ctx.sockets.publish({ userId: Number(row.user_id) }, { case: SIGNATURE_EVENT, data })
    return { token }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Marks the request used, once: false when another upload (or the pad's failure) closed it first. */
async function close(ctx: Pick<Ctx, 'db'>, row: SignatureRecord, staged: PluginStagedFile | null): Promise<boolean> {
  const changed = await ctx.db
    .table('signatures')
    .where('id', row.id)
    .whereNull('used_at')
    .update({ used_at: new Date(), path: staged ? staged.path.slice(0, 200) : null })
  return changed > 0
}

/** The request's person hears it ended without a signature, with `message` (in their language). */
async function tellFailure(ctx: Ctx, row: SignatureRecord, token: string, message: string): Promise<void> {
  const data: SignatureEvent = { token, status: 'fail', message }
  await ctx.sockets.publish({ userId: Number(row.user_id) }, { case: SIGNATURE_EVENT, data })
}

/**
 * The agent's pad did not sign (its command failed or timed out): the request is closed and its person
 * told, if it is an open request sent to one of this agent's machines.
 */
export async function signFailed(ctx: Ctx, agentId: number, token: string, detail: string): Promise<void> {
  const row = (await ctx.db
    .table('signatures')
    .where('token_hash', ctx.tokens.hash(token))
    .first()) as SignatureRecord | null
  if (!row || row.used_at || row.machine_id === null) return
  const machine = await ctx.db.table('machines').where('id', row.machine_id).where('agent_id', agentId).first()
  if (!machine || !(await close(ctx, row, null))) return
  const language = await languageOf(ctx, Number(row.user_id))
  const message = ctx.texts.t(language, 'devices.signature.pad_failed', { detail: detail.slice(0, 200) })
  await tellFailure(ctx, row, token, message)
}

/** Requests long past their end are of no use (hourly, with the jobs' expiry). */
export async function dropOldSignatures(ctx: Pick<PluginContext, 'db'>, now = Date.now()): Promise<number> {
  return ctx.db
    .table('signatures')
    .where('expires_at', '<', new Date(now - 24 * 3600_000))
    .delete()
}
