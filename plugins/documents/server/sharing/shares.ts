import { PluginFailure, type Language, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import {
  EMAIL_PATTERN,
  GRANTEE_TYPES,
  SHARING_LIMITS,
  publicLinkPath,
  type GranteeType,
  type ShareList,
  type SharePermission,
  type ShareRow,
} from '../../shared/sharing.js'
import { requireOwner, type ItemRef } from './access.js'
import { makeLink } from './links.js'
import { badRequest, idOf, isoOf } from './values.js'

/** Sharing with people (users, areas, roles) and by e-mail (issue 19 item 4). Only the owner shares. */

type ShareDeps = Pick<PluginServices, 'db' | 'people'>

export interface GranteeInput {
  type: GranteeType
  id: number
}

/** The grantees a client sent (JSON [{type, id}]), deduplicated; anything else is a 400. */
export function granteesOf(raw: unknown): GranteeInput[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > SHARING_LIMITS.granteesPerRequest) throw badRequest()
  const seen = new Map<string, GranteeInput>()
  for (const entry of raw) {
    const { type, id } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>
    if (!GRANTEE_TYPES.includes(type as GranteeType)) throw badRequest()
    const grantee = { type: type as GranteeType, id: idOf(id) }
    seen.set(`${grantee.type}:${grantee.id}`, grantee)
  }
  return [...seen.values()]
}

/** Everyone with access to an item: its owner and its shares, named. */
export async function listShares(deps: ShareDeps, who: PluginPrincipal, ref: ItemRef): Promise<ShareList> {
  const item = await requireOwner(deps, who, ref)
  const rows = await deps.db
    .table('shares')
    .select('id', 'grantee_type', 'grantee_id', 'grantee_email', 'permission', 'created_at', 'link_id')
    .where('subject_type', ref.type)
    .where('subject_id', ref.id)
    .orderBy('id')
  const userIds = rows.filter((row) => row.grantee_type === 'user').map((row) => Number(row.grantee_id))
  if (item.ownerId !== null) userIds.push(item.ownerId)
  const needAreas = rows.some((row) => row.grantee_type === 'area')
  const needRoles = rows.some((row) => row.grantee_type === 'role')
  const [users, areas, roles] = await Promise.all([
    deps.people.byIds(userIds),
    needAreas ? deps.people.areas() : [],
    needRoles ? deps.people.roles() : [],
  ])
  const names = {
    user: (id: number) => users.get(id)?.name,
    area: (id: number) => areas.find((area) => area.id === id)?.name,
    role: (id: number) => roles.find((role) => role.id === id)?.name,
  }
  const shares: ShareRow[] = rows.map((row) => {
    const type = row.grantee_type as ShareRow['grantee_type']
    const granteeId = row.grantee_id === null ? null : Number(row.grantee_id)
    const name = type === 'email' ? String(row.grantee_email) : (names[type](granteeId ?? 0) ?? `#${granteeId}`)
    return {
      id: Number(row.id),
      grantee_type: type,
      grantee_id: granteeId,
      grantee_email: row.grantee_email ?? null,
      name,
      permission: row.permission as SharePermission,
      created_at: isoOf(row.created_at) ?? '',
      link_id: row.link_id === null || row.link_id === undefined ? null : Number(row.link_id),
    }
  })
  const ownerName = item.ownerId === null ? '' : (users.get(item.ownerId)?.name ?? `#${item.ownerId}`)
  return { type: ref.type, id: ref.id, owner: { id: item.ownerId ?? 0, name: ownerName }, shares }
}

/** Checks that each grantee exists in the directory and is not the owner. */
async function checkGrantees(deps: ShareDeps, ownerId: number | null, grantees: readonly GranteeInput[]) {
  const userIds = grantees.filter((g) => g.type === 'user').map((g) => g.id)
  if (ownerId !== null && userIds.includes(ownerId)) throw badRequest('documents.share_self')
  const [users, areas, roles] = await Promise.all([
    userIds.length > 0 ? deps.people.byIds(userIds) : new Map(),
    grantees.some((g) => g.type === 'area') ? deps.people.areas() : [],
    grantees.some((g) => g.type === 'role') ? deps.people.roles() : [],
  ])
  for (const grantee of grantees) {
    const known =
      grantee.type === 'user'
        ? users.has(grantee.id)
        : (grantee.type === 'area' ? areas : roles).some((entry) => entry.id === grantee.id)
    if (!known) throw badRequest('documents.share_bad_grantee')
  }
}

/** Shares an item with users, areas or roles; a grantee already there gets the new permission. */
export async function shareWith(
  deps: ShareDeps & Pick<PluginServices, 'audit'>,
  who: PluginPrincipal,
  ref: ItemRef,
  grantees: readonly GranteeInput[],
  permission: SharePermission
): Promise<ShareList> {
  const item = await requireOwner(deps, who, ref, true)
  await checkGrantees(deps, item.ownerId, grantees)
  await deps.db.transaction(async (db) => {
    // The item is read again under lock, so a share never lands on an item trashed meanwhile.
    const table = ref.type === 'file' ? 'files' : 'folders'
    const row = await db.table(table).select('id', 'trashed_at').where('id', ref.id).forUpdate().first()
    if (!row || row.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    await upsertShares(db, who, ref, grantees, permission)
  })
  await deps.audit.record(who, 'share', { type: ref.type, id: ref.id }, { grantees, permission })
  return listShares(deps, who, ref)
}

async function upsertShares(
  db: PluginServices['db'],
  who: PluginPrincipal,
  ref: ItemRef,
  grantees: readonly GranteeInput[],
  permission: SharePermission
) {
  for (const grantee of grantees) {
    const existing = await db
      .table('shares')
      .select('id')
      .where('subject_type', ref.type)
      .where('subject_id', ref.id)
      .where('grantee_type', grantee.type)
      .where('grantee_id', grantee.id)
      .forUpdate()
      .first()
    if (existing) await db.table('shares').where('id', existing.id).update({ permission })
    else
      await db.table('shares').insert({
        subject_type: ref.type,
        subject_id: ref.id,
        grantee_type: grantee.type,
        grantee_id: grantee.id,
        grantee_email: null,
        permission,
        created_by: who.userId,
        created_at: new Date(),
      })
  }
}

/** An address as the directory would hold it, or a 400. */
export function emailOf(value: unknown): string {
  const email = typeof value === 'string' ? value.trim() : ''
  if (!EMAIL_PATTERN.test(email) || email.length > SHARING_LIMITS.emailMax)
    throw badRequest('documents.share_bad_email')
  return email
}

/**
 * Shares by e-mail. The address of an enabled user becomes a share with that user, who is mailed the
 * Shared view's address; any other address is mailed a public link (direct, read only: an outsider has
 * no account to write with), made for files only. Sharing again with the address replaces its link.
 */
export async function shareByEmail(
  deps: ShareDeps & Pick<PluginServices, 'audit' | 'mail' | 'tokens' | 'http'>,
  who: PluginPrincipal,
  ref: ItemRef,
  email: string,
  permission: SharePermission,
  language: Language
): Promise<ShareList> {
  const item = await requireOwner(deps, who, ref, true)
  const lower = email.toLowerCase()
  const user = (await deps.people.search(email, 20)).find((person) => person.email?.toLowerCase() === lower)
  const owner = item.ownerId === null ? undefined : (await deps.people.byIds([item.ownerId])).get(item.ownerId)
  const params = { owner: owner?.name ?? '', name: item.name }
  if (user) {
    const list = await shareWith(deps, who, ref, [{ type: 'user', id: user.id }], permission)
    await deps.mail.send(
      { userId: user.id },
      {
        subject: 'documents.share_mail_subject',
        text: 'documents.share_mail_text',
        params,
        link: deps.http.url('/documents/shared'),
      }
    )
    return list
  }
  if (ref.type !== 'file') throw badRequest('documents.share_email_folder')

  const token = await deps.db.transaction(async (db) => {
    const row = await db.table('files').select('id', 'trashed_at').where('id', ref.id).forUpdate().first()
    if (!row || row.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    const previous = await db
      .table('shares')
      .select('id', 'link_id')
      .where('subject_type', 'file')
      .where('subject_id', ref.id)
      .where('grantee_type', 'email')
      .where('grantee_email', lower)
      .forUpdate()
      .first()
    if (previous?.link_id) {
      await db.table('links').where('id', previous.link_id).whereNull('revoked_at').update({ revoked_at: new Date() })
    }
    if (previous) await db.table('shares').where('id', previous.id).delete()
    const made = await makeLink(db, deps.tokens, who, ref.id, {
      mode: 'direct',
      passwordHash: null,
      allowDownload: true,
      startsAt: null,
      endsAt: null,
    })
    await db.table('shares').insert({
      subject_type: 'file',
      subject_id: ref.id,
      grantee_type: 'email',
      grantee_id: null,
      grantee_email: lower,
      permission: 'read',
      created_by: who.userId,
      created_at: new Date(),
      link_id: made.id,
    })
    return made.token
  })
  await deps.audit.record(who, 'share_email', { type: ref.type, id: ref.id }, { email: lower })
  await deps.mail.send(
    { email, language },
    {
      subject: 'documents.share_mail_subject',
      text: 'documents.share_mail_link_text',
      params,
      link: deps.http.url(publicLinkPath(token)),
    }
  )
  return listShares(deps, who, ref)
}

async function shareSubject(db: PluginServices['db'], shareId: number): Promise<ItemRef & { linkId: number | null }> {
  const row = await db.table('shares').select('subject_type', 'subject_id', 'link_id').where('id', shareId).first()
  if (!row) throw new PluginFailure('documents.access_not_found', 404)
  return { type: row.subject_type, id: Number(row.subject_id), linkId: row.link_id ? Number(row.link_id) : null }
}

/** Changes a share's permission (an e-mail share stays read only: its link has no write). */
export async function updateShare(
  deps: ShareDeps & Pick<PluginServices, 'audit'>,
  who: PluginPrincipal,
  shareId: number,
  permission: SharePermission
): Promise<ShareList> {
  const subject = await shareSubject(deps.db, shareId)
  await requireOwner(deps, who, subject, true)
  if (subject.linkId !== null && permission !== 'read') throw badRequest()
  await deps.db.table('shares').where('id', shareId).update({ permission })
  await deps.audit.record(who, 'share_update', { type: subject.type, id: subject.id }, { share: shareId, permission })
  return listShares(deps, who, subject)
}

/** Revokes a share (an e-mail share's public link with it). Revoking what is gone is a 404. */
export async function revokeShare(
  deps: ShareDeps & Pick<PluginServices, 'audit'>,
  who: PluginPrincipal,
  shareId: number
): Promise<ShareList> {
  const subject = await shareSubject(deps.db, shareId)
  await requireOwner(deps, who, subject)
  await deps.db.transaction(async (db) => {
    const deleted = await db.table('shares').where('id', shareId).delete()
    if (deleted === 0) throw new PluginFailure('documents.access_not_found', 404)
    if (subject.linkId !== null) {
      await db.table('links').where('id', subject.linkId).whereNull('revoked_at').update({ revoked_at: new Date() })
    }
  })
  await deps.audit.record(who, 'share_revoke', { type: subject.type, id: subject.id }, { share: shareId })
  return listShares(deps, who, subject)
}
