import type { PluginDb } from '@tramita/plugin-api'
import { libraryName } from './names.js'

/** `A/B/C` as library folder names, each cleaned; a segment with nothing usable is an error. */
export function folderSegments(path: string | undefined): string[] {
  if (!path) return []
  return path
    .split('/')
    .filter((segment) => segment.trim() !== '')
    .map((segment) => {
      const name = libraryName(segment)
      if (name === null) throw new Error(`--folder: "${segment}" is not a folder name`)
      return name
    })
}

/** The id of the owner's folder at `segments` (outside the trash), or null when one of them is missing. */
export async function findFolder(db: PluginDb, ownerId: number, segments: string[]): Promise<number | null> {
  let parentId: number | null = null
  for (const name of segments) {
    const query = db.table<{ id: number }>('folders').select('id').where('name', name).whereNull('trashed_at')
    if (parentId === null) query.whereNull('parent_id').where('creator_id', ownerId)
    else query.where('parent_id', parentId)
    const found: { id: number } | null = await query.orderBy('id').first()
    if (!found) return null
    parentId = found.id
  }
  return parentId
}
