import {
  PluginFailure,
  type PluginContext,
  type PluginPrincipal,
  type PluginRequest,
  type PluginRoute,
} from '@tramita/plugin-api'
import { SYNC_ROUTES, type SyncEventRow, type SyncInfo, type SyncRouteName } from '../../shared/sync.js'
import { iso, toId } from '../library/fields.js'
import { requirePermission } from '../sharing/access.js'
import { agentFiles } from './bind.js'
import { queueSync } from './jobs.js'

function caller(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('documents.access_not_found', 404)
  return req.principal
}

/** A synchronized folder the caller may read (`need`: write), with its agent's name and state. */
async function syncInfo(ctx: PluginContext, who: PluginPrincipal, id: number, need: 'read' | 'all'): Promise<SyncInfo> {
  await requirePermission(ctx, who, { type: 'folder', id }, need)
  const folder = await ctx.db.table('folders').where('id', id).first()
  if (!folder || folder.type !== 'synchronized') throw new PluginFailure('documents.sync_not_synchronized', 404)
  // Every agent by its id: the name is shown to whoever may read the folder, not only to who may bind one.
  const agents = (await agentFiles(ctx)?.agents({ roles: ['superuser'] })) ?? []
  const agent = agents.find((a) => a.id === Number(folder.agent_id)) ?? null
  const events = (await ctx.db.table('sync_events').where('folder_id', id).orderBy('id', 'desc').limit(20)) as {
    kind: SyncEventRow['kind']
    rel_path: string | null
    detail: string | null
    file_id: number | null
    created_at: unknown
  }[]
  return {
    folder_id: id,
    agent,
    path: String(folder.path ?? ''),
    synced_at: folder.synced_at ? iso(folder.synced_at) : null,
    error: folder.sync_error ?? null,
    events: events.map((e) => ({
      kind: e.kind,
      path: e.rel_path,
      detail: e.detail,
      file_id: e.file_id === null ? null : Number(e.file_id),
      created_at: iso(e.created_at),
    })),
  }
}

/** Synchronized folders' routes (shared/sync.ts); the folder itself is made by the library's makeFolder. */
export function syncRoutes(ctx: PluginContext): PluginRoute[] {
  const route = (name: SyncRouteName, handle: PluginRoute['handle'], extra: Partial<PluginRoute> = {}) => ({
    method: SYNC_ROUTES[name].method,
    path: SYNC_ROUTES[name].path,
    auth: 'signed-in' as const,
    handle,
    ...extra,
  })
  return [
    route('agents', async (req) => ({ agents: (await agentFiles(ctx)?.agents(caller(req))) ?? [] })),
    route('info', (req) => syncInfo(ctx, caller(req), toId(req.params.id), 'read')),
    route(
      'syncNow',
      async (req) => {
        const info = await syncInfo(ctx, caller(req), toId(req.params.id), 'all')
        await queueSync(ctx, info.folder_id)
        return info
      },
      { rateLimit: { per: 'user', max: 30, windowSeconds: 60 } }
    ),
  ]
}
