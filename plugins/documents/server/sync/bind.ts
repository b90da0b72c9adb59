import {
  AGENT_FILES_CAPABILITY,
  PluginFailure,
  type AgentFilesCapability,
  type AgentFilesError,
  type PluginDb,
  type PluginPrincipal,
  type PluginServices,
} from '@tramita/plugin-api'

/** The devices plugin's agents' files, or undefined when that plugin is not there. */
export function agentFiles(deps: Pick<PluginServices, 'capabilities'>): AgentFilesCapability | undefined {
  return deps.capabilities.use<AgentFilesCapability>(AGENT_FILES_CAPABILITY)
}

/** The spec's texts for an agent's answer (001 §8), and the status each is answered with. */
const REFUSALS: Record<AgentFilesError, [string, number]> = {
  not_found: ['documents.agent_path_missing', 400],
  outside_root: ['documents.agent_path_missing', 400],
  not_directory: ['documents.agent_not_directory', 400],
  no_permission: ['documents.agent_no_permission', 403],
  offline: ['documents.agent_offline', 409],
  too_large: ['documents.agent_path_missing', 400],
  failed: ['documents.agent_offline', 409],
}

/** The text key of an agent's error (the last part is what a folder's sync keeps as its error). */
export function errorKey(error: AgentFilesError): string {
  return REFUSALS[error][0]
}

export function refusal(error: AgentFilesError): PluginFailure {
  const [key, status] = REFUSALS[error]
  return new PluginFailure(key, status)
}

const PATH_MAX = 1000

/**
 * Checks a synchronized folder's binding before it is made: an agent the person may pick, a path on
 * it that is an existing directory the agent may read and write (the spec's four texts). Without the
 * devices plugin every agent is off.
 */
export async function checkBinding(
  deps: Pick<PluginServices, 'capabilities'>,
  who: PluginPrincipal,
  agentId: number | null,
  rawPath: string | undefined
): Promise<{ agentId: number; path: string }> {
  const path = (rawPath ?? '').trim()
  if (!path || path.length > PATH_MAX) throw refusal('not_found')
  const files = agentFiles(deps)
  if (!files || agentId === null) throw refusal('offline')
  const mine = await files.agents(who)
  // An agent this person may not bind (or an unknown one) reads as one that is not there.
  if (!mine.some((a) => a.id === agentId)) throw refusal('offline')
  const checked = await files.check(agentId, path)
  if (checked !== 'ok') throw refusal(checked)
  return { agentId, path }
}

/** Refuses a synchronized folder inside another one, and a path its agent already syncs. */
export async function checkPlace(db: PluginDb, parentId: number | null, agentId: number, path: string): Promise<void> {
  for (let id = parentId; id !== null;) {
    const folder = (await db.table('folders').select('parent_id', 'type').where('id', id).first()) as {
      parent_id: number | null
      type: string
    } | null
    if (!folder) break
    if (folder.type === 'synchronized') throw new PluginFailure('documents.sync_nested', 409)
    id = folder.parent_id
  }
  const bound = await db
    .table('folders')
    .select('id')
    .where('type', 'synchronized')
    .where('agent_id', agentId)
    .where('path', path)
    .whereNull('trashed_at')
    .first()
  if (bound) throw new PluginFailure('documents.sync_path_bound', 409)
}
