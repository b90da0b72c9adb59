import {
  hasRole,
  PluginFailure,
  type PluginPrincipal,
  type PluginQuery,
  type PluginServices,
} from '@tramita/plugin-api'
import {
  LIBRARY_LIMITS,
  type Breadcrumb,
  type LibraryListing,
  type LibrarySort,
  type LibraryView,
  type Permission,
} from '../../shared/library.js'
import { RETENTION_ADMINS } from '../../shared/retention.js'
import { permissionOn, requirePermission, sharedIdsQuery, sharedPermissions } from '../sharing/access.js'
import { FILE_COLUMNS, FOLDER_COLUMNS, fileRows, folderRows, type FileRecord, type FolderRecord } from './rows.js'
import { documentsSettings, usageOf } from './usage.js'

export type ListDeps = Pick<PluginServices, 'db' | 'people' | 'settings'>

export interface ListOptions {
  view: LibraryView
  folderId: number | null
  sort: LibrarySort
  order: 'asc' | 'desc'
  limit: number
  offset: number
}

const MAX_DEPTH = 64

function sorted<Q extends PluginQuery>(query: Q, kind: 'files' | 'folders', sort: LibrarySort, order: 'asc' | 'desc') {
  const column = sort === 'date' ? 'updated_at' : sort === 'size' && kind === 'files' ? 'size' : 'name'
  return query.orderBy(column, order).orderBy('id', order)
}

/** Folders first, then files, one offset over both: the page takes what falls in it from each. */
async function page(
  folders: () => PluginQuery,
  files: () => PluginQuery,
  opts: ListOptions
): Promise<{ folders: FolderRecord[]; files: FileRecord[]; total: number }> {
  const folderCount = Number(((await folders().count('id', 'n')) as { n: number }[])[0]?.n ?? 0)
  const fileCount = Number(((await files().count('id', 'n')) as { n: number }[])[0]?.n ?? 0)
  let folderRowsRead: FolderRecord[] = []
  let fileRowsRead: FileRecord[] = []
  if (opts.offset < folderCount && opts.limit > 0) {
    folderRowsRead = await sorted(folders().select(...FOLDER_COLUMNS), 'folders', opts.sort, opts.order)
      .offset(opts.offset)
      .limit(opts.limit)
  }
  const room = opts.limit - folderRowsRead.length
  if (room > 0) {
    fileRowsRead = await sorted(files().select(...FILE_COLUMNS), 'files', opts.sort, opts.order)
      .offset(Math.max(0, opts.offset - folderCount))
      .limit(room)
  }
  return { folders: folderRowsRead, files: fileRowsRead, total: folderCount + fileCount }
}

/** The folders from the view's top to this one; in `shared`, up to the first one shared with the viewer. */
async function breadcrumbs(deps: ListDeps, who: PluginPrincipal, view: LibraryView, folderId: number | null) {
  const chain: Breadcrumb[] = []
  for (let id = folderId, depth = 0; id !== null && depth < MAX_DEPTH; depth++) {
    const row = await deps.db.table('folders').select('id', 'name', 'parent_id').where('id', id).first()
    if (!row) break
    chain.unshift({ id: row.id, name: row.name })
    if (view === 'shared' && row.parent_id !== null) {
      if ((await permissionOn(deps, who, { type: 'folder', id: row.parent_id })) === null) break
    }
    id = row.parent_id
  }
  return [{ id: null, name: '' }, ...chain]
}

/** One page of a view (spec 001 §2: my documents, shared, recent, recycle bin) with the viewer's usage. */
export async function listView(deps: ListDeps, who: PluginPrincipal, opts: ListOptions): Promise<LibraryListing> {
  const db = deps.db
  const me = who.userId
  const usage = await usageOf(db, await documentsSettings(deps.settings), me)
  const mine = (ownerId: number | null): Permission | null => (ownerId === me ? 'all' : null)
  let folderPermission: Permission = 'all'
  let listed: { folders: FolderRecord[]; files: FileRecord[]; total: number }
  let folder: LibraryListing['folder'] = null

  if ((opts.view === 'mine' || opts.view === 'shared') && opts.folderId !== null) {
    const folderId = opts.folderId
    folderPermission = (await requirePermission(deps, who, { type: 'folder', id: folderId }, 'read')).permission!
    const record = (await db
      .table('folders')
      .select(...FOLDER_COLUMNS)
      .where('id', folderId)
      .first()) as FolderRecord
    if (record.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    folder = (await folderRows(deps.people, [record], () => folderPermission))[0]
    listed = await page(
      () => db.table('folders').where('parent_id', folderId).whereNull('trashed_at'),
      () => db.table('files').where('folder_id', folderId).whereNull('trashed_at'),
      opts
    )
  } else if (opts.view === 'mine') {
    listed = await page(
      () => db.table('folders').whereNull('parent_id').where('creator_id', me).whereNull('trashed_at'),
      () => db.table('files').whereNull('folder_id').where('owner_id', me).whereNull('trashed_at'),
      opts
    )
  } else if (opts.view === 'shared') {
    listed = await page(
      () =>
        db
          .table('folders')
          .whereIn('id', sharedIdsQuery(db, who, 'folder'))
          .whereNull('trashed_at')
          .where('creator_id', '<>', me),
      () =>
        db
          .table('files')
          .whereIn('id', sharedIdsQuery(db, who, 'file'))
          .whereNull('trashed_at')
          .where('owner_id', '<>', me),
      opts
    )
    const onFolders = await sharedPermissions(
      db,
      who,
      'folder',
      listed.folders.map((r) => r.id)
    )
    const onFiles = await sharedPermissions(
      db,
      who,
      'file',
      listed.files.map((r) => r.id)
    )
    const folders = await folderRows(deps.people, listed.folders, (r) => onFolders.get(r.id) ?? 'read')
    const files = await fileRows(deps, me, listed.files, (r) => onFiles.get(r.id) ?? 'read')
    return answer(deps, who, opts, folder, folders, files, listed.total, usage)
  } else if (opts.view === 'trash') {
    listed = await page(
      () => db.table('folders').where('creator_id', me).whereNotNull('trashed_at').whereNull('trashed_with'),
      () => db.table('files').where('owner_id', me).whereNotNull('trashed_at').whereNull('trashed_with'),
      opts
    )
  } else {
    return recentView(deps, who, opts, usage)
  }

  // Inside a folder: what I own is mine to do all with; the rest as the folder allows.
  const folders = await folderRows(deps.people, listed.folders, (r) => mine(r.creator_id) ?? folderPermission)
  const files = await fileRows(deps, me, listed.files, (r) => mine(r.owner_id) ?? folderPermission)
  return answer(deps, who, opts, folder, folders, files, listed.total, usage)
}

async function answer(
  deps: ListDeps,
  who: PluginPrincipal,
  opts: ListOptions,
  folder: LibraryListing['folder'],
  folders: LibraryListing['folders'],
  files: LibraryListing['files'],
  total: number,
  usage: LibraryListing['usage']
): Promise<LibraryListing> {
  return {
    view: opts.view,
    folder,
    breadcrumbs: folder ? await breadcrumbs(deps, who, opts.view, folder.id) : [{ id: null, name: '' }],
    folders,
    files,
    total,
    offset: opts.offset,
    limit: opts.limit,
    usage,
    can_assign_retention: hasRole(who, RETENTION_ADMINS),
  }
}

/** The last files the viewer opened that they may still read, newest first. */
async function recentView(
  deps: ListDeps,
  who: PluginPrincipal,
  opts: ListOptions,
  usage: LibraryListing['usage']
): Promise<LibraryListing> {
  const opened = await deps.db
    .table('recent')
    .select('file_id', 'opened_at')
    .where('user_id', who.userId)
    .orderBy('opened_at', 'desc')
    .orderBy('file_id', 'desc')
    .limit(LIBRARY_LIMITS.recent)
  const when = new Map(opened.map((r: { file_id: number; opened_at: unknown }) => [r.file_id, r.opened_at]))
  const records = (await deps.db
    .table('files')
    .select(...FILE_COLUMNS)
    .whereIn('id', [...when.keys()])
    .whereNull('trashed_at')) as FileRecord[]
  const permissions = new Map<number, Permission>()
  for (const r of records) {
    const permission = await permissionOn(deps, who, { type: 'file', id: r.id })
    if (permission) permissions.set(r.id, permission)
  }
  const order = [...when.keys()]
  const readable = records
    .filter((r) => permissions.has(r.id))
    .map((r) => ({ ...r, opened_at: when.get(r.id) }))
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
  const pageRows = readable.slice(opts.offset, opts.offset + opts.limit)
  const files = await fileRows(deps, who.userId, pageRows, (r) => permissions.get(r.id)!)
  return answer(deps, who, opts, null, [], files, readable.length, usage)
}
