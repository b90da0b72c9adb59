import { PluginFailure, type PluginContext, type PluginPrincipal } from '@tramita/plugin-api'
import type { FolderRow } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { cleanName, nameTaken } from './names.js'
import { folderRows, FOLDER_COLUMNS, type FolderRecord } from './rows.js'
import { lockOwner } from './usage.js'
import { checkBinding, checkPlace } from '../sync/bind.js'
import { folderBound } from '../sync/jobs.js'

export interface NewFolder {
  name: string | undefined
  parentId: number | null
  type: string | undefined
  path: string | undefined
  agentId: number | null
}

/**
 * Makes a folder in my root or in a folder I may write. A synchronized folder mirrors a path on a
 * device agent (spec 001 §2, §8): the agent and path are checked first (sync/bind.ts, the spec's texts),
 * then it is synced at once and on the schedule (sync/).
 */
export async function makeFolder(
  deps: Pick<PluginContext, 'db' | 'people' | 'capabilities' | 'jobs' | 'logger'>,
  who: PluginPrincipal,
  input: NewFolder
): Promise<FolderRow> {
  const name = cleanName(input.name)
  const type = input.type ?? 'normal'
  if (type !== 'normal' && type !== 'synchronized') throw new PluginFailure('documents.invalid_folder_type', 400)
  const binding = type === 'synchronized' ? await checkBinding(deps, who, input.agentId, input.path) : null
  const id = await deps.db.transaction(async (db) => {
    if (input.parentId !== null) {
      await requirePermission({ db }, who, { type: 'folder', id: input.parentId }, 'all')
      // The parent stays as checked (not trashed meanwhile) until the folder is in.
      const parent = await db.table('folders').select('trashed_at').where('id', input.parentId).forUpdate().first()
      if (!parent || parent.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    } else {
      await lockOwner(db, who.userId)
    }
    if (binding) await checkPlace(db, input.parentId, binding.agentId, binding.path)
    if (await nameTaken(db, 'folders', { folderId: input.parentId, ownerId: who.userId }, name)) {
      throw new PluginFailure('documents.name_taken', 409)
    }
    const now = new Date()
    const [newId] = await db.table('folders').insert({
      parent_id: input.parentId,
      type,
      name,
      path: binding?.path ?? null,
      agent_id: binding?.agentId ?? null,
      creator_id: who.userId,
      created_at: now,
      updated_at: now,
    })
    return newId
  })
  if (binding) await folderBound(deps, Number(id), binding.agentId)
  const record = (await deps.db
    .table('folders')
    .select(...FOLDER_COLUMNS)
    .where('id', id)
    .first()) as FolderRecord
  return (await folderRows(deps.people, [record], () => 'all'))[0]
}
