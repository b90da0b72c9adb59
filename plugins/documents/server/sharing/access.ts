import { PluginFailure, type PluginDb, type PluginPrincipal, type PluginQuery } from '@tramita/plugin-api'
import type { ItemType, SharePermission } from '../../shared/sharing.js'

/**
 * THE rule of who may read or write a file or folder (spec 001 §2, §6; issue 19 item 4):
 * - a superuser: all, everywhere;
 * - the item's owner, or the owner of a folder above it: all (trashed or not);
 * - anyone else reaches nothing in the trash (the item or a folder above it trashed);
 * - a share of the item, or of a folder above it, with the user, one of their areas or one of their
 *   roles: the highest permission among them ('all' over 'read');
 * - nobody else: nothing (callers answer 404, not revealing that the item exists).
 *
 * Shares name roles by id (the directory's `roles()`), while a principal carries role names: the ids
 * are looked up only when a role share is in play.
 */

export interface ItemRef {
  type: ItemType
  id: number
}

export type AccessDeps = { db: PluginDb }

/** One link of the chain from an item up to the root: the item first, then its folders. */
interface ChainLink {
  type: ItemType
  id: number
  ownerId: number | null
  trashed: boolean
}

export interface ItemAccess {
  ref: ItemRef
  name: string
  ownerId: number | null
  /** The folder holding it (a file's folder_id, a folder's parent_id). */
  folderId: number | null
  trashed: boolean
  /** A file archived by a retention confirmation: read-only for everyone. */
  archived: boolean
  permission: SharePermission | null
}

const RANK: Record<SharePermission, number> = { read: 1, all: 2 }

function higher(a: SharePermission | null, b: SharePermission | null): SharePermission | null {
  if (a === null) return b
  if (b === null) return a
  return RANK[b] > RANK[a] ? b : a
}

/** Folders above `folderId`, nearest first (one recursive query; depth capped against a corrupt cycle). */
async function foldersUp(db: PluginDb, folderId: number | null): Promise<ChainLink[]> {
  if (folderId === null) return []
  const rows = await db.raw<{
    id: number
    parent_id: number | null
    creator_id: number | null
    trashed_at: unknown
    depth: number
  }>(
    `WITH RECURSIVE chain (id, parent_id, creator_id, trashed_at, depth) AS (
       SELECT id, parent_id, creator_id, trashed_at, 0 FROM documents_folders WHERE id = ?
       UNION ALL
       SELECT f.id, f.parent_id, f.creator_id, f.trashed_at, c.depth + 1
         FROM documents_folders f JOIN chain c ON f.id = c.parent_id
        WHERE c.depth < 200
     )
     SELECT id, parent_id, creator_id, trashed_at, depth FROM chain ORDER BY depth`,
    [folderId]
  )
  return rows.map((row) => ({
    type: 'folder' as const,
    id: Number(row.id),
    ownerId: row.creator_id === null ? null : Number(row.creator_id),
    trashed: row.trashed_at !== null && row.trashed_at !== undefined,
  }))
}

async function loadItem(db: PluginDb, ref: ItemRef) {
  if (!Number.isSafeInteger(ref.id) || ref.id <= 0) return null
  if (ref.type === 'file') {
    const row = await db
      .table('files')
      .select('id', 'name', 'owner_id', 'folder_id', 'trashed_at', 'archived_at')
      .where('id', ref.id)
      .first()
    if (!row) return null
    return {
      name: String(row.name),
      ownerId: Number(row.owner_id),
      folderId: row.folder_id === null ? null : Number(row.folder_id),
      trashed: row.trashed_at !== null,
      archived: row.archived_at !== null && row.archived_at !== undefined,
    }
  }
  const row = await db
    .table('folders')
    .select('id', 'name', 'creator_id', 'parent_id', 'trashed_at')
    .where('id', ref.id)
    .first()
  if (!row) return null
  return {
    name: String(row.name),
    ownerId: row.creator_id === null ? null : Number(row.creator_id),
    folderId: row.parent_id === null ? null : Number(row.parent_id),
    trashed: row.trashed_at !== null,
    archived: false,
  }
}

/** The share rows of the user, their areas and roles, for a shares query. */
export function whereGrantee(query: PluginQuery, who: Grantee): PluginQuery {
  return query.where((q) => {
    q.where((u) => u.where('grantee_type', 'user').where('grantee_id', who.userId))
    if (who.areaIds.length > 0) q.orWhere((a) => a.where('grantee_type', 'area').whereIn('grantee_id', who.areaIds))
    if (who.roleIds.length > 0) q.orWhere((r) => r.where('grantee_type', 'role').whereIn('grantee_id', who.roleIds))
  })
}

/** Whom a share row may name: the user, one of their areas or one of their roles. */
type Grantee = Pick<PluginPrincipal, 'userId' | 'areaIds' | 'roleIds'>

/** The item, where it sits and what the principal may do with it (permission null: nothing). */
export async function accessOf(deps: AccessDeps, who: PluginPrincipal, ref: ItemRef): Promise<ItemAccess | null> {
  const item = await loadItem(deps.db, ref)
  if (!item) return null
  const access: ItemAccess = { ref, ...item, permission: null }
  if (who.roles.includes('superuser') || item.ownerId === who.userId) return { ...access, permission: 'all' }
  const folders = await foldersUp(deps.db, item.folderId)
  if (folders.some((folder) => folder.ownerId === who.userId)) return { ...access, permission: 'all' }
  if (item.trashed || folders.some((folder) => folder.trashed)) return access

  const folderIds = folders.map((folder) => folder.id)
  const rows = await deps.db
    .table('shares')
    .select('grantee_type', 'grantee_id', 'permission')
    .where((q) => {
      q.where((own) => own.where('subject_type', ref.type).where('subject_id', ref.id))
      if (folderIds.length > 0) q.orWhere((up) => up.where('subject_type', 'folder').whereIn('subject_id', folderIds))
    })
    .whereIn('grantee_type', ['user', 'area', 'role'])
  let permission: SharePermission | null = null
  for (const row of rows) {
    const granteeId = Number(row.grantee_id)
    let matches: boolean
    if (row.grantee_type === 'user') matches = granteeId === who.userId
    else if (row.grantee_type === 'area') matches = who.areaIds.includes(granteeId)
    else matches = who.roleIds.includes(granteeId)
    if (matches) permission = higher(permission, row.permission as SharePermission)
  }
  return { ...access, permission }
}

/** What the principal may do with the item: 'all', 'read' or null (nothing, or no such item). */
export async function permissionOn(
  deps: AccessDeps,
  who: PluginPrincipal,
  ref: ItemRef
): Promise<SharePermission | null> {
  return (await accessOf(deps, who, ref))?.permission ?? null
}

/**
 * The item if the principal may `need` it. Nothing reachable (or no such item) is a 404, so that ids
 * probed by a stranger reveal nothing; reading an item to write it is a 403, as is writing an archived
 * file (retention: read-only for everyone, its owner and superusers too).
 */
export async function requirePermission(
  deps: AccessDeps,
  who: PluginPrincipal,
  ref: ItemRef,
  need: SharePermission
): Promise<ItemAccess> {
  const access = await accessOf(deps, who, ref)
  if (!access?.permission) throw new PluginFailure('documents.access_not_found', 404)
  if (need === 'all' && access.permission !== 'all') throw new PluginFailure('documents.access_read_only', 403)
  if (need === 'all' && access.archived) throw new PluginFailure('documents.archived_read_only', 403)
  return access
}

/**
 * Only the owner (or a superuser) decides who else sees an item: its shares and public links. A grantee
 * is told 403, anyone else 404. `grant`: a new share, link or permission, refused on an archived file
 * (revoking one is not: an archived document may still be taken out of reach).
 */
export async function requireOwner(
  deps: AccessDeps,
  who: PluginPrincipal,
  ref: ItemRef,
  grant = false
): Promise<ItemAccess> {
  const access = await requirePermission(deps, who, ref, 'read')
  if (access.ownerId !== who.userId && !who.roles.includes('superuser')) {
    throw new PluginFailure('documents.share_owner_only', 403)
  }
  if (grant && access.archived) throw new PluginFailure('documents.archived_read_only', 403)
  return access
}

/**
 * The ids of items of one type shared directly with the principal (their user, areas or roles), as a
 * subquery for `whereIn('id', …)`: the Shared view pages and sorts the items itself. Items inside a
 * shared folder are reached through it (accessOf), not listed here.
 */
export function sharedIdsQuery(db: PluginDb, who: Grantee, type: ItemType): PluginQuery {
  return whereGrantee(db.table('shares').select('subject_id').where('subject_type', type), who)
}

/**
 * The principal's permission on each of these items through direct shares (for a page of the Shared
 * view): one indexed query for the whole page.
 */
export async function sharedPermissions(
  db: PluginDb,
  who: Grantee,
  type: ItemType,
  ids: readonly number[]
): Promise<Map<number, SharePermission>> {
  const out = new Map<number, SharePermission>()
  if (ids.length === 0) return out
  const rows = await whereGrantee(
    db.table('shares').select('subject_id', 'permission').where('subject_type', type).whereIn('subject_id', ids),
    who
  )
  for (const row of rows) {
    const id = Number(row.subject_id)
    out.set(id, higher(out.get(id) ?? null, row.permission as SharePermission) as SharePermission)
  }
  return out
}

/**
 * Spec 001 §6: "a document is treated as visible when its sharing map is empty or no other entry (the
 * creator's is skipped) has read or all rights". Here every share row grants read or all and none is
 * ever made for the owner, so an item is private (visible to its owner only, "visible" in the spec's
 * words) exactly when it has no share row; this answers which of these items are shared, for a badge.
 */
export async function sharedItems(db: PluginDb, type: ItemType, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db.table('shares').select('subject_id').where('subject_type', type).whereIn('subject_id', ids)
  return new Set(rows.map((row) => Number(row.subject_id)))
}
