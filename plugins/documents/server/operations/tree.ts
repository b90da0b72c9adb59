import type { PluginDb } from '@tramita/plugin-api'

/** Deepest chain walked (a corrupt cycle stops here). */
const MAX_DEPTH = 200

export interface ChainFolder {
  id: number
  name: string
  parentId: number | null
}

/** The folders from `folderId` up to its root, nearest first (one recursive query). */
export async function foldersAbove(db: PluginDb, folderId: number | null): Promise<ChainFolder[]> {
  if (folderId === null) return []
  const rows = await db.raw<{ id: number; name: string; parent_id: number | null; depth: number }>(
    `WITH RECURSIVE chain (id, name, parent_id, depth) AS (
       SELECT id, name, parent_id, 0 FROM documents_folders WHERE id = ?
       UNION ALL
       SELECT f.id, f.name, f.parent_id, c.depth + 1 FROM documents_folders f JOIN chain c ON f.id = c.parent_id
        WHERE c.depth < ${MAX_DEPTH}
     )
     SELECT id, name, parent_id, depth FROM chain ORDER BY depth`,
    [folderId]
  )
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
  }))
}

/** Folder names from the root down to `folderId` (a breadcrumb). */
export async function pathNames(db: PluginDb, folderId: number | null): Promise<string[]> {
  return (await foldersAbove(db, folderId)).map((f) => f.name).reverse()
}

export interface SubtreeFolder {
  id: number
  name: string
  parentId: number | null
  depth: number
}

/** A folder and every folder under it outside the trash, parents before children. */
export async function subtree(db: PluginDb, folderId: number): Promise<SubtreeFolder[]> {
  const rows = await db.raw<{ id: number; name: string; parent_id: number | null; depth: number }>(
    `WITH RECURSIVE tree (id, name, parent_id, depth) AS (
       SELECT id, name, parent_id, 0 FROM documents_folders WHERE id = ? AND trashed_at IS NULL
       UNION ALL
       SELECT f.id, f.name, f.parent_id, t.depth + 1 FROM documents_folders f JOIN tree t ON f.parent_id = t.id
        WHERE f.trashed_at IS NULL AND t.depth < ${MAX_DEPTH}
     )
     SELECT id, name, parent_id, depth FROM tree ORDER BY depth, id`,
    [folderId]
  )
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    depth: Number(r.depth),
  }))
}
