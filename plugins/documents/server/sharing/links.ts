import { createHash } from 'node:crypto'
import { PluginFailure, type PluginDb, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import {
  LINK_MODES,
  SHARING_LIMITS,
  linkState,
  publicLinkPath,
  type CreatedLink,
  type LinkAccessRow,
  type LinkMode,
  type LinkRow,
  type VisitorData,
} from '../../shared/sharing.js'
import { requireOwner } from './access.js'
import { badRequest, dateOf, flagOf, isoOf } from './values.js'

/** Public links of a file (spec 001 §2, §4; issue 19 item 5): made, listed and revoked by the owner. */

type LinkDeps = Pick<PluginServices, 'db' | 'people'>

export interface LinkSettings {
  mode: LinkMode
  passwordHash: string | null
  allowDownload: boolean
  startsAt: Date | null
  endsAt: Date | null
}

/** What the public screen sends for a typed password, and what is stored (hashed again) when made. */
export function passwordPrehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex')
}

/** The latest date a timestamp column holds on MariaDB (2038-01-19), kept well inside. */
const LAST_DATE = Date.UTC(2037, 11, 31)

function dateField(value: string | undefined): Date | null {
  if (value === undefined || value.trim() === '') return null
  const date = new Date(value.trim())
  if (Number.isNaN(date.getTime()) || date.getTime() > LAST_DATE || date.getTime() < Date.UTC(2000, 0, 1)) {
    throw badRequest('documents.link_dates')
  }
  return date
}

/** Checks what the owner asked for; the password is hashed here, in the same step that makes the link. */
export async function linkSettingsOf(
  tokens: PluginServices['tokens'],
  fields: { mode?: string; password?: string; allow_download?: string; starts_at?: string; ends_at?: string },
  now = new Date()
): Promise<LinkSettings> {
  const mode = fields.mode as LinkMode
  if (!LINK_MODES.includes(mode)) throw badRequest('documents.link_bad_mode')
  let passwordHash: string | null = null
  if (mode === 'password') {
    const password = fields.password ?? ''
    if (password.length < SHARING_LIMITS.passwordMin || password.length > SHARING_LIMITS.passwordMax) {
      throw badRequest('documents.link_password_length')
    }
    passwordHash = await tokens.hashPassword(passwordPrehash(password))
  }
  const startsAt = dateField(fields.starts_at)
  const endsAt = dateField(fields.ends_at)
  if (endsAt && (endsAt <= now || (startsAt && endsAt <= startsAt))) throw badRequest('documents.link_dates')
  const allowDownload =
    fields.allow_download === undefined || fields.allow_download === '' ? true : flagOf(fields.allow_download)
  return { mode, passwordHash, allowDownload, startsAt, endsAt }
}

/** Inserts a link (inside the caller's transaction): only the token's hash is stored. */
export async function makeLink(
  db: PluginDb,
  tokens: PluginServices['tokens'],
  who: PluginPrincipal,
  fileId: number,
  settings: LinkSettings
): Promise<{ id: number; token: string }> {
  const { token, hash } = tokens.create()
  const [id] = await db.table('links').insert({
    file_id: fileId,
    token_hash: hash,
    mode: settings.mode,
    password_hash: settings.passwordHash,
    allow_download: settings.allowDownload,
    starts_at: settings.startsAt,
    ends_at: settings.endsAt,
    created_by: who.userId,
    created_at: new Date(),
    revoked_at: null,
  })
  return { id: Number(id), token }
}

async function linkRows(db: PluginDb, where: { fileId?: number; linkId?: number }): Promise<LinkRow[]> {
  let query = db
    .table('links')
    .select('id', 'file_id', 'mode', 'allow_download', 'starts_at', 'ends_at', 'created_at', 'revoked_at')
  if (where.fileId !== undefined) query = query.where('file_id', where.fileId)
  if (where.linkId !== undefined) query = query.where('id', where.linkId)
  const rows = await query.orderBy('id', 'desc')
  const ids = rows.map((row) => Number(row.id))
  const counts = new Map<number, number>()
  const sentTo = new Map<number, string>()
  if (ids.length > 0) {
    const counted = await db
      .table('link_accesses')
      .select('link_id')
      .count('id', 'n')
      .whereIn('link_id', ids)
      .groupBy('link_id')
    for (const row of counted) counts.set(Number(row.link_id), Number(row.n))
    const mailed = await db.table('shares').select('link_id', 'grantee_email').whereIn('link_id', ids)
    for (const row of mailed) sentTo.set(Number(row.link_id), String(row.grantee_email))
  }
  const now = new Date()
  return rows.map((row) => {
    const id = Number(row.id)
    const revoked = isoOf(row.revoked_at)
    return {
      id,
      file_id: Number(row.file_id),
      mode: row.mode as LinkMode,
      allow_download: flagOf(row.allow_download),
      starts_at: isoOf(row.starts_at),
      ends_at: isoOf(row.ends_at),
      created_at: isoOf(row.created_at) ?? '',
      revoked_at: revoked,
      state: revoked ? 'closed' : linkState(dateOf(row.starts_at), dateOf(row.ends_at), now),
      accesses: counts.get(id) ?? 0,
      sent_to: sentTo.get(id) ?? null,
    }
  })
}

/** Makes a link and its password in one step; its address is answered this once. */
export async function createLink(
  deps: LinkDeps & Pick<PluginServices, 'tokens' | 'http' | 'audit'>,
  who: PluginPrincipal,
  fileId: number,
  settings: LinkSettings
): Promise<CreatedLink> {
  await requireOwner(deps, who, { type: 'file', id: fileId }, true)
  const made = await deps.db.transaction(async (db) => {
    const file = await db.table('files').select('id', 'trashed_at').where('id', fileId).forUpdate().first()
    if (!file || file.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    return makeLink(db, deps.tokens, who, fileId, settings)
  })
  await deps.audit.record(who, 'link_create', { type: 'file', id: fileId }, { link: made.id, mode: settings.mode })
  const [link] = await linkRows(deps.db, { linkId: made.id })
  return { link, token: made.token, url: deps.http.url(publicLinkPath(made.token)) }
}

export async function listLinks(deps: LinkDeps, who: PluginPrincipal, fileId: number): Promise<LinkRow[]> {
  await requireOwner(deps, who, { type: 'file', id: fileId })
  return linkRows(deps.db, { fileId })
}

/** The link's file, if the principal owns it (404 for anyone who cannot see it). */
async function ownedLink(deps: LinkDeps, who: PluginPrincipal, linkId: number): Promise<number> {
  const row = await deps.db.table('links').select('file_id').where('id', linkId).first()
  if (!row) throw new PluginFailure('documents.access_not_found', 404)
  await requireOwner(deps, who, { type: 'file', id: Number(row.file_id) })
  return Number(row.file_id)
}

/** Revokes a link (again: no change); an e-mail share made with it goes too. */
export async function revokeLink(
  deps: LinkDeps & Pick<PluginServices, 'audit'>,
  who: PluginPrincipal,
  linkId: number
): Promise<LinkRow> {
  const fileId = await ownedLink(deps, who, linkId)
  await deps.db.transaction(async (db) => {
    await db.table('links').where('id', linkId).whereNull('revoked_at').update({ revoked_at: new Date() })
    await db.table('shares').where('link_id', linkId).delete()
  })
  await deps.audit.record(who, 'link_revoke', { type: 'file', id: fileId }, { link: linkId })
  const [link] = await linkRows(deps.db, { linkId })
  return link
}

/** Who opened the link and what visitors wrote, newest first. */
export async function linkAccesses(
  deps: LinkDeps,
  who: PluginPrincipal,
  linkId: number,
  page: { limit: number; offset: number }
): Promise<LinkAccessRow[]> {
  await ownedLink(deps, who, linkId)
  const rows = await deps.db
    .table('link_accesses')
    .select(
      'id',
      'outcome',
      'ip',
      'created_at',
      'visitor_company',
      'visitor_name',
      'visitor_email',
      'visitor_phone',
      'visitor_accepted'
    )
    .where('link_id', linkId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
  return rows.map((row) => {
    const visitor: VisitorData | null =
      row.visitor_name === null
        ? null
        : {
            name_company: row.visitor_company ?? '',
            name: row.visitor_name,
            email: row.visitor_email ?? '',
            phone: row.visitor_phone ?? '',
            accept: flagOf(row.visitor_accepted),
          }
    return {
      id: Number(row.id),
      outcome: row.outcome,
      ip: String(row.ip),
      created_at: isoOf(row.created_at) ?? '',
      visitor,
    }
  })
}
