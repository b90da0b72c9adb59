import type { PluginContext } from '@tramita/plugin-api'
import { queueSync } from './jobs.js'

/** How far up a folder chain a synchronized folder is looked for (folders nest at most this deep in practice). */
const MAX_DEPTH = 64

/**
 * Something changed in the library (an upload, a new or restored version, a trash or restore): the
 * synchronized folders holding it are synced now rather than at their next period. Never fails the
 * change itself: a sync not queued here runs on the schedule.
 */
export async function librarySyncTouched(
  deps: Pick<PluginContext, 'db' | 'jobs' | 'logger'>,
  items: { files?: number[]; folders?: (number | null)[] }
): Promise<void> {
  try {
    const start = new Set<number>(items.folders?.filter((id): id is number => id !== null) ?? [])
    if (items.files?.length) {
      const rows = (await deps.db.table('files').select('folder_id').whereIn('id', items.files)) as {
        folder_id: number | null
      }[]
      for (const row of rows) if (row.folder_id !== null) start.add(Number(row.folder_id))
    }
    const synced = new Set<number>()
    for (const id of start) {
      let at: number | null = id
      for (let depth = 0; at !== null && depth < MAX_DEPTH; depth++) {
        const folder = (await deps.db.table('folders').select('id', 'parent_id', 'type').where('id', at).first()) as {
          id: number
          parent_id: number | null
          type: string
        } | null
        if (!folder) break
        if (folder.type === 'synchronized') {
          synced.add(Number(folder.id))
          break
        }
        at = folder.parent_id === null ? null : Number(folder.parent_id)
      }
    }
    for (const folderId of synced) await queueSync(deps, folderId)
  } catch (error) {
    deps.logger.warn(`documents: a synchronized folder's sync was not queued (${(error as Error).message})`)
  }
}
