import { PluginFailure, type PluginDb, type PluginFileAnswer, type PluginServices } from '@tramita/plugin-api'
import {
  SHARING_LIMITS,
  checkVisitor,
  linkState,
  type LinkAccessRow,
  type LinkMode,
  type OpenAnswer,
  type VerifyAnswer,
  type VisitorData,
} from '../../shared/sharing.js'
import { dateOf, flagOf } from './values.js'

/**
 * The public side of a link (spec 001 §2, §4, §5, §7, §8): verify, open (password, visitor form or
 * direct) and the short-lived grant that serves the file. Every refusal that names the link's state is
 * recorded for the owner; the dates are checked here at each step, never trusted to the screen.
 */

type Outcome = LinkAccessRow['outcome']

interface LinkRecord {
  id: number
  fileId: number
  mode: LinkMode
  passwordHash: string | null
  allowDownload: boolean
  startsAt: Date | null
  endsAt: Date | null
  fileName: string
  storageKey: string
  mime: string
  size: number
}

const MISSING = () => new PluginFailure('documents.link_missing', 404)

/** A live link by its token: not revoked, its file there and out of the trash. */
async function linkByToken(db: PluginDb, tokens: PluginServices['tokens'], token: unknown): Promise<LinkRecord> {
  if (typeof token !== 'string' || token.length < 16 || token.length > 200) throw MISSING()
  const link = await db.table('links').where('token_hash', tokens.hash(token)).whereNull('revoked_at').first()
  if (!link) throw MISSING()
  return withFile(db, link)
}

async function withFile(db: PluginDb, link: any): Promise<LinkRecord> {
  const file = await db
    .table('files')
    .select('id', 'name', 'storage_key', 'mime', 'size', 'trashed_at', 'folder_id')
    .where('id', link.file_id)
    .first()
  if (!file || file.trashed_at !== null || (await folderTrashed(db, file.folder_id))) throw MISSING()
  return {
    id: Number(link.id),
    fileId: Number(file.id),
    mode: link.mode,
    passwordHash: link.password_hash ?? null,
    allowDownload: flagOf(link.allow_download),
    startsAt: dateOf(link.starts_at),
    endsAt: dateOf(link.ends_at),
    fileName: String(file.name),
    storageKey: String(file.storage_key),
    mime: String(file.mime),
    size: Number(file.size),
  }
}

/** Is the folder, or one above it, in the trash? (A trashed folder takes its content out of reach.) */
async function folderTrashed(db: PluginDb, folderId: unknown): Promise<boolean> {
  if (folderId === null || folderId === undefined) return false
  const rows = await db.raw<{ trashed: number }>(
    `WITH RECURSIVE chain (id, parent_id, trashed_at, depth) AS (
       SELECT id, parent_id, trashed_at, 0 FROM documents_folders WHERE id = ?
       UNION ALL
       SELECT f.id, f.parent_id, f.trashed_at, c.depth + 1
         FROM documents_folders f JOIN chain c ON f.id = c.parent_id WHERE c.depth < 200
     )
     SELECT COUNT(*) AS trashed FROM chain WHERE trashed_at IS NOT NULL`,
    [Number(folderId)]
  )
  return Number(rows[0]?.trashed ?? 0) > 0
}

async function record(
  db: PluginDb,
  linkId: number,
  outcome: Outcome,
  ip: string,
  extra: AccessExtra = {}
): Promise<number> {
  const [id] = await db.table('link_accesses').insert({
    link_id: linkId,
    outcome,
    ip: ip.slice(0, 64),
    ...accessDetails(extra),
    created_at: new Date(),
  })
  return id
}

interface AccessExtra {
  visitor?: VisitorData
  grantHash?: string
  grantExpiresAt?: Date
}

function accessDetails(extra: AccessExtra) {
  return {
    visitor_company: extra.visitor ? extra.visitor.name_company || null : null,
    visitor_name: extra.visitor?.name ?? null,
    visitor_email: extra.visitor?.email ?? null,
    visitor_phone: extra.visitor?.phone ?? null,
    visitor_accepted: extra.visitor ? extra.visitor.accept : null,
    grant_hash: extra.grantHash ?? null,
    grant_expires_at: extra.grantExpiresAt ?? null,
  }
}

/** Spec 001 §7: `{estado, pass, name}` for a live token; 'This document does not exist' otherwise. */
export async function verifyLink(deps: Pick<PluginServices, 'db' | 'tokens'>, token: unknown): Promise<VerifyAnswer> {
  const link = await linkByToken(deps.db, deps.tokens, token)
  return { estado: linkState(link.startsAt, link.endsAt, new Date()), pass: link.mode, name: link.fileName }
}

export interface OpenRequest {
  token: unknown
  ip: string
  socketId: string | undefined
  type: string | undefined
  data: string | undefined
}

/**
 * Wrong passwords in the window, up to the attempt `upTo` (its own row included): of this link from any
 * address (guessing spread over addresses), or from this address over any link. Counted in the
 * database, so every app node sees the same count; an attempt is written before its password is
 * checked, so guesses sent side by side each count the ones written before them, and no more than the
 * limit are ever checked in a window.
 */
async function throttled(db: PluginDb, linkId: number, ip: string, upTo: number): Promise<boolean> {
  const since = new Date(Date.now() - SHARING_LIMITS.wrongPasswordWindowMinutes * 60_000)
  const wrong = () =>
    db.table('link_accesses').count('id', 'n').where('outcome', 'wrong_password').where('created_at', '>=', since)
  const perLink = await wrong().where('link_id', linkId).where('id', '<=', upTo).first()
  if (Number(perLink?.n ?? 0) > SHARING_LIMITS.wrongPasswordsPerLink) return true
  const perIp = await wrong().where('ip', ip.slice(0, 64)).where('id', '<=', upTo).first()
  return Number(perIp?.n ?? 0) > SHARING_LIMITS.wrongPasswordsPerIp
}

/**
 * Spec 001 §7 getPublicFile: checks the step the link asks for, records the access and hands out a
 * grant (a token bound to this access, valid for minutes) whose address is answered and sent as
 * `fileReady` on the caller's socket.
 */
export async function openLink(
  deps: Pick<PluginServices, 'db' | 'tokens' | 'sockets' | 'http'>,
  request: OpenRequest
): Promise<OpenAnswer> {
  const { db, tokens } = deps
  const link = await linkByToken(db, tokens, request.token)
  const state = linkState(link.startsAt, link.endsAt, new Date())
  if (state !== 'active') {
    await record(db, link.id, state, request.ip)
    throw new PluginFailure(state === 'not_active' ? 'documents.link_not_active' : 'documents.link_closed', 403)
  }

  let visitor: VisitorData | undefined
  /** A password attempt's row, written as wrong until the password proves right. */
  let attempt: number | undefined
  if (link.mode === 'password') {
    if (request.type !== 'password') throw new PluginFailure('documents.link_wrong_step', 400)
    attempt = await record(db, link.id, 'wrong_password', request.ip)
    if (await throttled(db, link.id, request.ip, attempt)) {
      await db.table('link_accesses').where('id', attempt).update({ outcome: 'throttled' })
      throw new PluginFailure('documents.link_throttled', 429)
    }
    const sent = (request.data ?? '').trim().toLowerCase()
    const ok =
      /^[0-9a-f]{64}$/.test(sent) &&
      link.passwordHash !== null &&
      (await tokens.verifyPassword(link.passwordHash, sent))
    if (!ok) throw new PluginFailure('documents.link_wrong_password', 403)
  } else if (link.mode === 'visitor') {
    if (request.type !== 'public') throw new PluginFailure('documents.link_wrong_step', 400)
    let parsed: unknown
    try {
      parsed = JSON.parse(request.data ?? '')
    } catch {
      parsed = null
    }
    const checked = checkVisitor(parsed)
    if (!checked.ok) throw new PluginFailure('documents.visitor_invalid', 400, { fields: checked.errors })
    visitor = checked.data
  }

  const grant = tokens.create()
  const expires = new Date(Date.now() + SHARING_LIMITS.grantMinutes * 60_000)
  const opened = { visitor, grantHash: grant.hash, grantExpiresAt: expires }
  if (attempt === undefined) await record(db, link.id, 'opened', request.ip, opened)
  else
    await db
      .table('link_accesses')
      .where('id', attempt)
      .update({ outcome: 'opened', ...accessDetails(opened) })
  const rute = deps.http.url(`/api/documents/public/${grant.token}`)
  const socketId = request.socketId?.trim()
  if (socketId && socketId.length <= 100) {
    // The answer carries the address too: a socket that is gone must not fail an access already recorded.
    await deps.sockets.publish({ socketId }, { case: 'fileReady', data: { rute } }).catch(() => undefined)
  }
  return { rute, name: link.fileName, allow_download: link.allowDownload }
}

/**
 * Serves the file of a grant: inline, or as an attachment when asked and the link allows it. The link's
 * dates and revocation are checked again, so a grant does not outlive its link.
 */
export async function serveGrant(
  deps: Pick<PluginServices, 'db' | 'tokens'>,
  grant: string,
  download: boolean,
  ip: string
): Promise<PluginFileAnswer> {
  const expired = () => new PluginFailure('documents.grant_expired', 404)
  if (grant.length < 16 || grant.length > 200) throw expired()
  const access = await deps.db
    .table('link_accesses')
    .select('link_id', 'grant_expires_at')
    .where('grant_hash', deps.tokens.hash(grant))
    .first()
  const until = dateOf(access?.grant_expires_at)
  if (!access || !until || until <= new Date()) throw expired()
  const row = await deps.db.table('links').where('id', access.link_id).whereNull('revoked_at').first()
  if (!row) throw MISSING()
  const link = await withFile(deps.db, row)
  if (linkState(link.startsAt, link.endsAt, new Date()) !== 'active')
    throw new PluginFailure('documents.link_closed', 403)
  if (download && !link.allowDownload) throw new PluginFailure('documents.link_no_download', 403)
  if (download) await record(deps.db, link.id, 'downloaded', ip)
  return {
    kind: 'file',
    source: { key: link.storageKey },
    name: link.fileName,
    mime: link.mime,
    disposition: download ? 'attachment' : 'inline',
    size: link.size,
  }
}
