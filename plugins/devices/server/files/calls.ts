import { randomUUID } from 'node:crypto'
import type { AgentFilesError, PluginContext } from '@tramita/plugin-api'
import { FILES_CALL_MS, FILES_TRANSFER_MS, type FilesOp, type ServerMessage } from '../../shared/protocol.js'
import { leaseAlive, peerIdOf, type AgentRecord } from '../agents/agents.js'

export type CallsCtx = Pick<PluginContext, 'db' | 'peers' | 'storage' | 'logger'>

/** A file call's answer as the agent posted it (routes.ts). */
export interface CallAnswer {
  error?: AgentFilesError
  entry?: unknown
  files?: unknown
  storage_key?: string | null
}

const POLL_MS = 100

/** The agent when its connection is alive and it may take calls, else null (off, revoked, never seen). */
export async function liveAgent(ctx: Pick<PluginContext, 'db'>, agentId: number): Promise<AgentRecord | null> {
  const agent = (await ctx.db.table('agents').where('id', agentId).first()) as AgentRecord | null
  return agent && !agent.revoked_at && leaseAlive(agent) ? agent : null
}

/**
 * One file call (protocol.ts FilesOrder): the row first, the message after, then the answer read from
 * the row on whichever node it landed, until it comes or the time is up (the agent is then taken to
 * be off). `storageKey` is a write's bytes, deleted with the row. The row is gone when this returns.
 */
export async function fileCall(
  ctx: CallsCtx,
  agentId: number,
  order: { op: FilesOp; root: string; path?: string; maxBytes?: number },
  storageKey: string | null = null
): Promise<CallAnswer> {
  const agent = await liveAgent(ctx, agentId)
  if (!agent) {
    if (storageKey) await ctx.storage.delete(storageKey)
    return { error: 'offline' }
  }
  const id = randomUUID()
  await ctx.db.table('file_calls').insert({
    id,
    agent_id: agentId,
    op: order.op,
    status: 'sent',
    storage_key: storageKey,
    max_bytes: order.maxBytes ?? null,
    created_at: new Date(),
  })
  try {
    const message: ServerMessage = { type: 'files', id, ...order }
    await ctx.peers.send(peerIdOf(agentId, agent.session!), message)
    const limit = Date.now() + (order.op === 'read' || order.op === 'write' ? FILES_TRANSFER_MS : FILES_CALL_MS)
    while (Date.now() < limit) {
      const row = await ctx.db.table('file_calls').where('id', id).first()
      if (row?.status === 'done') {
        const answer = JSON.parse(String(row.answer ?? '{}')) as CallAnswer
        return { ...answer, storage_key: row.storage_key !== storageKey ? row.storage_key : null }
      }
      // An agent that went away meanwhile will not answer: no need to wait out the limit.
      if (!(await liveAgent(ctx, agentId))) return { error: 'offline' }
      await new Promise((done) => setTimeout(done, POLL_MS))
    }
    return { error: 'offline' }
  } finally {
    await ctx.db.table('file_calls').where('id', id).delete()
    if (storageKey) await ctx.storage.delete(storageKey)
  }
}

/** Calls older than the longest wait are left by a caller that died: their rows and bytes go. */
export async function dropStaleCalls(ctx: Pick<PluginContext, 'db' | 'storage'>): Promise<void> {
  const before = new Date(Date.now() - 2 * FILES_TRANSFER_MS)
  const stale = (await ctx.db.table('file_calls').where('created_at', '<', before).select('id', 'storage_key')) as {
    id: string
    storage_key: string | null
  }[]
  for (const row of stale) {
    if (row.storage_key) await ctx.storage.delete(row.storage_key)
    await ctx.db.table('file_calls').where('id', row.id).delete()
  }
}
