import type { PluginContext, PluginJob, PluginServices } from '@tramita/plugin-api'
import { documentsSettings } from '../library/usage.js'
import { agentFiles } from './bind.js'
import { syncFolder } from './run.js'

/**
 * When synchronized folders sync: `documents:sync` (one folder) runs when the folder is made, when its
 * agent reports a change under its path or (re)connects, on "Sync now", and every `syncMinutes`: each
 * run queues the folder's next one under the id of that period, so across nodes a period runs once. The
 * hourly `documents:sync_all` starts any folder's chain that stopped (a queue emptied, a node down).
 */
export const SYNC_JOB = 'documents:sync'

let bound: PluginContext | null = null

type Enqueue = Pick<PluginServices, 'jobs' | 'settings'>

/** The folder's scheduled run of the next period (its id: the period, so it is queued once). */
async function queueNext(deps: Enqueue, folderId: number): Promise<void> {
  const { syncMinutes } = await documentsSettings(deps.settings)
  const period = syncMinutes * 60_000
  const next = (Math.floor(Date.now() / period) + 1) * period
  await deps.jobs.enqueue(
    SYNC_JOB,
    { folderId },
    { jobId: `documents-sync-${folderId}-at-${next}`, delayMs: next - Date.now() }
  )
}

/**
 * A sync now. No job id: a request after a run has finished must run again (the agent debounces its
 * reports, and a run that finds nothing changed costs one list).
 */
export async function queueSync(deps: Pick<PluginServices, 'jobs'>, folderId: number, delayMs = 0): Promise<void> {
  await deps.jobs.enqueue(SYNC_JOB, { folderId }, { delayMs })
}

/** A folder was just bound: its agent watches the path, and the first sync runs. */
export async function folderBound(
  deps: Pick<PluginContext, 'capabilities' | 'jobs' | 'logger'>,
  folderId: number,
  agentId: number
): Promise<void> {
  try {
    await agentFiles(deps)?.rewatch(agentId)
    await queueSync(deps, folderId)
  } catch (error) {
    // The folder is made; the hourly sweep starts its sync if this could not.
    deps.logger.warn(`documents: folder ${folderId} was made but its sync not queued (${(error as Error).message})`)
  }
}

async function foldersOf(ctx: PluginContext, agentId: number | null, root: string | null) {
  const query = ctx.db.table('folders').select('id', 'path').where('type', 'synchronized').whereNull('trashed_at')
  if (agentId !== null) query.where('agent_id', agentId)
  if (root !== null) query.where('path', root)
  return (await query) as { id: number; path: string }[]
}

export const syncJobs: PluginJob[] = [
  {
    name: 'sync',
    attempts: 1,
    async handle(payload: { folderId?: unknown }) {
      if (!bound) throw new Error('documents: the sync job ran before the plugin registered')
      const folderId = Number(payload?.folderId)
      if (!Number.isInteger(folderId) || folderId <= 0) return { state: 'gone' }
      const summary = await syncFolder(bound, folderId)
      // A run that found another one busy left it a request: that one runs once more.
      if (summary.state !== 'gone') await queueNext(bound, folderId)
      return summary
    },
  },
  {
    name: 'sync_all',
    async handle() {
      if (!bound) throw new Error('documents: the sync job ran before the plugin registered')
      const folders = await foldersOf(bound, null, null)
      for (const folder of folders) await queueNext(bound, Number(folder.id))
      return { folders: folders.length }
    },
  },
]

/** Binds the jobs' context and declares the hourly sweep (in `register`). */
export function bindSyncJobs(ctx: PluginContext): void {
  bound = ctx
  ctx.jobs.every('hourly', 'sync_all')
}

/**
 * The agents' side (in `boot`, when the devices plugin's capability is there): the paths each agent
 * watches, and a sync of the folders under a path an agent says changed (all of an agent that connected).
 */
export function listenToAgents(ctx: PluginContext): void {
  const files = agentFiles(ctx)
  if (!files) return
  files.watchedRoots(async (agentId) => [...new Set((await foldersOf(ctx, agentId, null)).map((f) => f.path))])
  files.onChange((agentId, root) => {
    void foldersOf(ctx, agentId, root)
      .then(async (folders) => {
        for (const folder of folders) await queueSync(ctx, Number(folder.id))
      })
      .catch((error: Error) => ctx.logger.warn(`documents: a sync could not be queued (${error.message})`))
  })
}
