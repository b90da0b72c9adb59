/** Synchronized folders' calls from the screens (shared/sync.ts). */
import { call } from '@tramita/web/api'
import { libraryPath, LIBRARY_ROUTES, type FolderRow } from '../../shared/library.js'
import { SYNC_ROUTES, type SyncAgent, type SyncInfo } from '../../shared/sync.js'
import { data } from './api.js'

const folderPath = (path: string, id: number) => path.replace(':id', String(id))

export async function syncAgents(): Promise<SyncAgent[]> {
  return (await data(call<{ agents: SyncAgent[] }>('GET', SYNC_ROUTES.agents.path, {}))).agents
}

export function syncInfo(folderId: number): Promise<SyncInfo> {
  return data(call<SyncInfo>('GET', folderPath(SYNC_ROUTES.info.path, folderId), {}))
}

export function syncNow(folderId: number): Promise<SyncInfo> {
  return data(call<SyncInfo>('POST', folderPath(SYNC_ROUTES.syncNow.path, folderId), {}))
}

/** A synchronized folder bound to a path on an agent (the server checks both: spec 001 §8's texts). */
export function makeSyncedFolder(
  name: string,
  parent: number | null,
  agentId: number,
  path: string
): Promise<FolderRow> {
  const fields: Record<string, string | number> = { name, type: 'synchronized', agent_id: agentId, path }
  if (parent !== null) fields.parent_id = parent
  return data(call<FolderRow>(LIBRARY_ROUTES.makeFolder.method, libraryPath('makeFolder'), fields))
}
