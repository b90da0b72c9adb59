import { PluginFailure, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import type { FolderRow } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { cleanName, nameTaken } from './names.js'
import { folderRows, FOLDER_COLUMNS, type FolderRecord } from './rows.js'
import { lockOwner } from './usage.js'

export interface NewFolder {
  name: string | undefined
  parentId: number | null
  type: string | undefined
  path: string | undefined
  agentId: number | null
}

/**
 * Makes a folder in my root or in a folder I may write. A synchronized folder mirrors a path on an
 * agent (spec 001 §2, §8); no agent is connected to this server yet, so one is refused with the
 * spec's agent texts: no agent given or unknown → the agent is off; no path → the path does not exist.
 */
export async function makeFolder(
  deps: Pick<PluginServices, 'db' | 'people'>,
  who: PluginPrincipal,
  input: NewFolder
): Promise<FolderRow> {
  const name = cleanName(input.name)
  const type = input.type ?? 'normal'
  if (type === 'synchronized') {
    if (!input.path?.trim()) throw new PluginFailure('documents.agent_path_missing', 400)
    throw new PluginFailure('documents.agent_offline', 409)
  }
  if (type !== 'normal') throw new PluginFailure('documents.invalid_folder_type', 400)
  const id = await deps.db.transaction(async (db) => {
    if (input.parentId !== null) {
      await requirePermission({ db }, who, { type: 'folder', id: input.parentId }, 'all')
      // The parent stays as checked (not trashed meanwhile) until the folder is in.
      const parent = await db.table('folders').select('trashed_at').where('id', input.parentId).forUpdate().first()
      if (!parent || parent.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    } else {
      await lockOwner(db, who.userId)
    }
    if (await nameTaken(db, 'folders', { folderId: input.parentId, ownerId: who.userId }, name)) {
      throw new PluginFailure('documents.name_taken', 409)
    }
    const now = new Date()
    const [newId] = await db.table('folders').insert({
      parent_id: input.parentId,
      type: 'normal',
      name,
      creator_id: who.userId,
      created_at: now,
      updated_at: now,
    })
    return newId
  })
  const record = (await deps.db
    .table('folders')
    .select(...FOLDER_COLUMNS)
    .where('id', id)
    .first()) as FolderRecord
  return (await folderRows(deps.people, [record], () => 'all'))[0]
}
