/**
 * Synchronized folders (spec 001 §2, §8): a folder bound to a path on a device agent, kept the same
 * both ways. Made with the library's makeFolder (type synchronized, agent_id, path); these routes list
 * the agents one may bind, show a folder's sync and ask for one now.
 */
export const SYNC_ROUTES = {
  /** → SyncAgents: the agents the caller may bind a folder to (none without the devices plugin). */
  agents: { method: 'GET', path: '/api/documents/sync/agents' },
  /** → SyncInfo of a synchronized folder the caller may read. */
  info: { method: 'GET', path: '/api/documents/folders/:id/sync' },
  /** Queues a sync of the folder now (write permission) → SyncInfo. */
  syncNow: { method: 'POST', path: '/api/documents/folders/:id/sync' },
} as const

export type SyncRouteName = keyof typeof SYNC_ROUTES

export interface SyncAgent {
  id: number
  name: string
  online: boolean
}

export interface SyncAgents {
  agents: SyncAgent[]
}

export interface SyncEventRow {
  kind: 'conflict' | 'refused' | 'error'
  path: string | null
  detail: string | null
  file_id: number | null
  created_at: string
}

export interface SyncInfo {
  folder_id: number
  agent: SyncAgent | null
  path: string
  synced_at: string | null
  /** The last run's failure (a text key's last part: agent_offline, agent_path_missing…), or null. */
  error: string | null
  /** The folder's sync activity, newest first (the last 20). */
  events: SyncEventRow[]
}
