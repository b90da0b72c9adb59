import type { PluginPrincipal, PluginServices, StoredObject } from '@tramita/plugin-api'
import { OPERATION_LIMITS, type CopyAnswer, type CopyType } from '../../shared/operations.js'
import { freeName } from '../library/names.js'
import { insertVersion } from '../library/uploads.js'
import { assertRoom, documentsSettings, lockOwner, usageOf } from '../library/usage.js'
import { requirePermission } from '../sharing/access.js'
import { writeSearchRow } from '../search/index_row.js'
import { asOperation, failure } from './failures.js'
import { foldersAbove, subtree } from './tree.js'

type Deps = Pick<PluginServices, 'db' | 'people' | 'storage' | 'settings'>

export interface CopyRequest {
  type: CopyType
  /** The destination folder; null: the caller's root. */
  dest: number | null
  files: number[]
  folders: number[]
}

interface SourceFile {
  id: number
  folder_id: number | null
  owner_id: number
  name: string
  extension: string
  mime: string
  size: number
  storage_key: string
  pages: number | null
}

const FILE_COLUMNS = ['id', 'folder_id', 'owner_id', 'name', 'extension', 'mime', 'size', 'storage_key', 'pages']

/**
 * copy_doc (spec 001 §7): `copy` duplicates files and folders (with everything under them) into a folder
 * the caller may write, as the caller's own, each stored object duplicated; `cut` moves them there. A
 * folder is never moved or copied into itself or a folder under it, and a cut never changes whose an
 * item is: the destination must be in the same owner's tree. A name taken in the destination gets
 * " (2)". Nothing is changed unless everything can be done.
 */
export function copyItems(deps: Deps, who: PluginPrincipal, request: CopyRequest): Promise<CopyAnswer> {
  return asOperation('copy', async () => {
    if (request.files.length + request.folders.length === 0) throw failure('copy', 400, 'nothing_to_copy')
    const access = { db: deps.db }
    const destOwner =
      request.dest === null
        ? who.userId
        : (await requirePermission(access, who, { type: 'folder', id: request.dest }, 'all')).ownerId
    if (request.dest !== null) {
      const above = new Set((await foldersAbove(deps.db, request.dest)).map((f) => f.id))
      if (request.folders.some((id) => above.has(id))) throw failure('copy', 409, 'into_itself')
    }
    return request.type === 'cut' ? cut(deps, who, request, destOwner) : copy(deps, who, request)
  })
}

async function cut(
  deps: Deps,
  who: PluginPrincipal,
  request: CopyRequest,
  destOwner: number | null
): Promise<CopyAnswer> {
  return deps.db.transaction(async (db) => {
    const access = { db }
    const place = { folderId: request.dest, ownerId: destOwner ?? who.userId }
    if (request.dest !== null) {
      const folder = await db.table('folders').select('trashed_at').where('id', request.dest).forUpdate().first()
      if (!folder || folder.trashed_at !== null) throw failure('copy', 404, 'access_not_found')
      // Re-read under the lock: the destination may have been moved under a folder being cut.
      const above = new Set((await foldersAbove(db, request.dest)).map((f) => f.id))
      if (request.folders.some((id) => above.has(id))) throw failure('copy', 409, 'into_itself')
    }
    const now = new Date()
    for (const id of request.folders) {
      const item = await requirePermission(access, who, { type: 'folder', id }, 'all')
      if (item.ownerId !== destOwner) throw failure('copy', 409, 'other_owner')
      if (item.folderId === request.dest) continue
      const name = await freeName(db, 'folders', place, item.name)
      await db.table('folders').where('id', id).update({ parent_id: request.dest, name, updated_at: now })
      await db.table('folders').where('id', id).increment('row_version')
    }
    for (const id of request.files) {
      const item = await requirePermission(access, who, { type: 'file', id }, 'all')
      if (item.ownerId !== destOwner) throw failure('copy', 409, 'other_owner')
      if (item.folderId === request.dest) continue
      const name = await freeName(db, 'files', place, item.name)
      await db.table('files').where('id', id).update({ folder_id: request.dest, name, updated_at: now })
      await db.table('files').where('id', id).increment('row_version')
      if (name !== item.name) await writeSearchRow(db, id)
    }
    return { type: 'cut' as const, files: request.files, folders: request.folders }
  })
}

async function copy(deps: Deps, who: PluginPrincipal, request: CopyRequest): Promise<CopyAnswer> {
  const access = { db: deps.db }
  // What will be copied: each folder's tree and the files in it, read once and counted before any byte moves.
  const trees: { rootId: number; folders: Awaited<ReturnType<typeof subtree>> }[] = []
  for (const id of request.folders) {
    await requirePermission(access, who, { type: 'folder', id }, 'read')
    trees.push({ rootId: id, folders: await subtree(deps.db, id) })
  }
  const treeFolderIds = trees.flatMap((t) => t.folders.map((f) => f.id))
  const files: SourceFile[] = []
  for (const id of request.files) {
    await requirePermission(access, who, { type: 'file', id }, 'read')
    files.push(
      (await deps.db
        .table<SourceFile>('files')
        .select(...FILE_COLUMNS)
        .where('id', id)
        .first()) as SourceFile
    )
  }
  const inTrees: SourceFile[] = treeFolderIds.length
    ? await deps.db
        .table<SourceFile>('files')
        .select(...FILE_COLUMNS)
        .whereIn('folder_id', treeFolderIds)
        .whereNull('trashed_at')
    : []
  const all = [...files, ...inTrees]
  if (all.length + treeFolderIds.length > OPERATION_LIMITS.copyItems) throw failure('copy', 413, 'too_many')
  const bytes = all.reduce((sum, f) => sum + Number(f.size), 0)
  const settings = await documentsSettings(deps.settings)
  assertRoom(await usageOf(deps.db, settings, who.userId), bytes)

  // The bytes first (no transaction held while streaming); deleted again if the rows cannot be written.
  const copies = new Map<SourceFile, StoredObject>()
  try {
    for (const file of all)
      copies.set(file, await deps.storage.put(await deps.storage.read(file.storage_key), file.extension))
    return await deps.db.transaction(async (db) => {
      await lockOwner(db, who.userId)
      assertRoom(await usageOf(db, settings, who.userId), bytes)
      if (request.dest !== null) {
        const folder = await db.table('folders').select('trashed_at').where('id', request.dest).forUpdate().first()
        if (!folder || folder.trashed_at !== null) throw failure('copy', 404, 'access_not_found')
      }
      const now = new Date()
      const newFolder = new Map<number, number>()
      const answer: CopyAnswer = { type: 'copy', files: [], folders: [] }
      for (const tree of trees) {
        for (const folder of tree.folders) {
          const parent = folder.id === tree.rootId ? request.dest : newFolder.get(folder.parentId!)!
          const name =
            folder.id === tree.rootId
              ? await freeName(db, 'folders', { folderId: parent, ownerId: who.userId }, folder.name)
              : folder.name
          const [id] = await db.table('folders').insert({
            parent_id: parent,
            type: 'normal',
            name,
            creator_id: who.userId,
            created_at: now,
            updated_at: now,
          })
          newFolder.set(folder.id, id!)
          if (folder.id === tree.rootId) answer.folders.push(id!)
        }
      }
      for (const file of all) {
        const stored = copies.get(file)!
        const topLevel = files.includes(file)
        const folderId = topLevel ? request.dest : newFolder.get(file.folder_id!)!
        const name = topLevel ? await freeName(db, 'files', { folderId, ownerId: who.userId }, file.name) : file.name
        const [id] = await db.table('files').insert({
          folder_id: folderId,
          owner_id: who.userId,
          name,
          extension: file.extension,
          mime: file.mime,
          size: stored.size,
          storage_key: stored.key,
          sha256: stored.sha256,
          current_version: 1,
          pages: file.pages,
          created_at: now,
          updated_at: now,
        })
        await insertVersion(db, who, id!, 1, name, { ...stored, mime: file.mime }, file.pages, now)
        // Its index metadata goes with it (labels are their owner's own, and stay).
        const metadata = await db.table('file_metadata').select('index_id', 'values').where('file_id', file.id)
        if (metadata.length) {
          await db
            .table('file_metadata')
            .insert(metadata.map((m: { index_id: number; values: string }) => ({ ...m, file_id: id })))
        }
        await writeSearchRow(db, id!)
        if (topLevel) answer.files.push(id!)
      }
      return answer
    })
  } catch (error) {
    for (const stored of copies.values()) await deps.storage.delete(stored.key)
    throw error
  }
}
