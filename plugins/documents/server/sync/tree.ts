import { createHash } from 'node:crypto'
import type { PluginDb } from '@tramita/plugin-api'
import { libraryName } from '../cli/names.js'
import { cleanName } from '../library/names.js'
import { lockOwner } from '../library/usage.js'

/**
 * The library's side of a synchronized folder: its live files by their path under it (folder names and
 * the file's name joined by `/`), and the sub-folders a path of the agent's needs.
 */

export interface TreeFile {
  id: number
  rel: string
  folderId: number
  name: string
  version: number
  storageKey: string
  sha256: string
  archived: boolean
}

export interface Tree {
  byRel: Map<string, TreeFile>
  byId: Map<number, TreeFile>
  /** A folder's path under the synchronized one ('' for itself). */
  dirs: Map<number, string>
}

/** A path both sides can hold as is: every segment a library name unchanged, none hidden (a dotfile). */
export function syncablePath(rel: string): boolean {
  return rel.split('/').every((segment) => {
    if (segment.startsWith('.') || libraryName(segment) !== segment) return false
    try {
      return cleanName(segment) === segment
    } catch {
      return false
    }
  })
}

export function pathHash(rel: string): string {
  return createHash('sha256').update(rel).digest('hex')
}

export async function readTree(db: PluginDb, rootId: number): Promise<Tree> {
  const dirs = new Map<number, string>([[rootId, '']])
  let level = [rootId]
  while (level.length) {
    const rows = (await db
      .table('folders')
      .select('id', 'parent_id', 'name')
      .whereIn('parent_id', level)
      .whereNull('trashed_at')) as { id: number; parent_id: number; name: string }[]
    level = []
    for (const row of rows) {
      const parent = dirs.get(Number(row.parent_id))!
      dirs.set(Number(row.id), parent ? `${parent}/${row.name}` : row.name)
      level.push(Number(row.id))
    }
  }
  const byRel = new Map<string, TreeFile>()
  const byId = new Map<number, TreeFile>()
  const ids = [...dirs.keys()]
  for (let at = 0; at < ids.length; at += 500) {
    const rows = (await db
      .table('files')
      .select('id', 'folder_id', 'name', 'current_version', 'storage_key', 'sha256', 'archived_at')
      .whereIn('folder_id', ids.slice(at, at + 500))
      .whereNull('trashed_at')) as {
      id: number
      folder_id: number
      name: string
      current_version: number
      storage_key: string
      sha256: string
      archived_at: unknown
    }[]
    for (const row of rows) {
      const dir = dirs.get(Number(row.folder_id))!
      const rel = dir ? `${dir}/${row.name}` : row.name
      if (!syncablePath(rel)) continue
      const file: TreeFile = {
        id: Number(row.id),
        rel,
        folderId: Number(row.folder_id),
        name: row.name,
        version: Number(row.current_version),
        storageKey: row.storage_key,
        sha256: row.sha256,
        archived: row.archived_at !== null && row.archived_at !== undefined,
      }
      byRel.set(rel, file)
      byId.set(file.id, file)
    }
  }
  return { byRel, byId, dirs }
}

/**
 * The folder for a path's directory under the synchronized folder, each missing one made (the owner's,
 * type normal) under the owner's lock, so two runs make it once; answers its id.
 */
export async function folderForDir(
  db: PluginDb,
  tree: Tree,
  rootId: number,
  ownerId: number,
  dir: string
): Promise<number> {
  if (!dir) return rootId
  let parentId = rootId
  let path = ''
  for (const name of dir.split('/')) {
    path = path ? `${path}/${name}` : name
    const known = [...tree.dirs].find(([, p]) => p === path)?.[0]
    if (known !== undefined) {
      parentId = known
      continue
    }
    parentId = await db.transaction(async (trx) => {
      await lockOwner(trx, ownerId)
      const found = (await trx
        .table('folders')
        .select('id')
        .where('parent_id', parentId)
        .where('name', name)
        .whereNull('trashed_at')
        .first()) as { id: number } | null
      if (found) return Number(found.id)
      const now = new Date()
      const [id] = await trx.table('folders').insert({
        parent_id: parentId,
        type: 'normal',
        name,
        creator_id: ownerId,
        created_at: now,
        updated_at: now,
      })
      return Number(id)
    })
    tree.dirs.set(parentId, path)
  }
  return parentId
}
