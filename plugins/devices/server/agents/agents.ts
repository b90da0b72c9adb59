import {
  PluginFailure,
  type PluginContext,
  type PluginDb,
  type PluginPrincipal,
  type PluginRequest,
} from '@tramita/plugin-api'
import type { AgentRow } from '../../shared/devices.js'
import { AGENT_STALE_MS, type AgentStatus } from '../../shared/protocol.js'
import { devicesSettings } from '../settings.js'

/**
 * Agents: made by an administrator with a token shown once (only its hash is kept), revoked at once
 * (the token is refused from then on and a live connection is closed on whichever node holds it).
 */

export interface AgentRecord {
  id: number
  name: string
  status: AgentStatus
  token_hash: string | null
  token_hint: string | null
  revoked_at: Date | string | null
  session: string | null
  instance: string | null
  session_seen_at: Date | string | null
  last_seen_at: Date | string | null
  hostname: string | null
  version: string | null
  /** Started with a sign command: its machines take sign orders. */
  can_sign?: boolean | number
}

const NAME_MAX = 150

export function agentName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (!name || name.length > NAME_MAX) throw new PluginFailure('devices.agent_name_invalid')
  return name
}

export async function createAgent(
  ctx: Pick<PluginContext, 'db' | 'tokens' | 'audit'>,
  who: PluginPrincipal,
  name: string
): Promise<{ agent: AgentRow; token: string }> {
  const { token, hash } = ctx.tokens.create()
  const now = new Date()
  const [id] = await ctx.db.table('agents').insert({
    name,
    status: 'WAITING',
    token_hash: hash,
    token_hint: token.slice(0, 6),
    created_by: who.userId,
    created_at: now,
    updated_at: now,
  })
  await ctx.audit.record(who, 'agent_created', { type: 'agent', id: id! }, { name })
  return { agent: (await listAgents(ctx.db, Number(id)))[0]!, token }
}

export async function renameAgent(
  ctx: Pick<PluginContext, 'db' | 'audit'>,
  who: PluginPrincipal,
  id: number,
  name: string
): Promise<AgentRow> {
  const changed = await ctx.db.table('agents').where('id', id).update({ name, updated_at: new Date() })
  if (!changed) throw new PluginFailure('devices.agent_not_found', 404)
  await ctx.audit.record(who, 'agent_renamed', { type: 'agent', id }, { name })
  return (await listAgents(ctx.db, id))[0]!
}

/**
 * Revokes an agent's token: CANCELLED from now on, its unfinished jobs failed, and its connection (if
 * any, on any node) closed. Revoking twice is not an error.
 */
export async function revokeAgent(
  ctx: Pick<PluginContext, 'db' | 'audit' | 'peers'>,
  who: PluginPrincipal,
  id: number,
  onJobsFailed: (jobIds: string[]) => Promise<void>
): Promise<AgentRow> {
  const outcome = await ctx.db.transaction(async (trx) => {
    const agent = (await trx.table('agents').where('id', id).forUpdate().first()) as AgentRecord | null
    if (!agent) throw new PluginFailure('devices.agent_not_found', 404)
    if (agent.revoked_at) return { agent, jobs: [] as string[] }
    const now = new Date()
    await trx
      .table('agents')
      .where('id', id)
      .update({ status: 'CANCELLED', revoked_at: now, session: null, updated_at: now })
    const jobs = (await trx.table('jobs').where('agent_id', id).where('status', 'sent').select('id')) as {
      id: string
    }[]
    if (jobs.length > 0) {
      await trx
        .table('jobs')
        .whereIn(
          'id',
          jobs.map((j) => j.id)
        )
        .update({ status: 'failed', error: 'agent_off', updated_at: now })
    }
    return { agent, jobs: jobs.map((j) => j.id) }
  })
  if (outcome.agent.session) {
    await ctx.peers.disconnect(peerIdOf(id, outcome.agent.session), 4401, 'token revoked')
  }
  if (outcome.jobs.length > 0) await onJobsFailed(outcome.jobs)
  if (!outcome.agent.revoked_at) await ctx.audit.record(who, 'agent_revoked', { type: 'agent', id })
  return (await listAgents(ctx.db, id))[0]!
}

/** A connection's peer id: the agent and the session that holds its lease. */
/**
 * The agent an agent's HTTP call comes from (its results, scans and file answers): its token in the
 * `token` header, not revoked. These routes take no session, so an unknown or revoked token reads as
 * no such job or call (404), as another agent's does.
 */
export async function agentByToken(
  ctx: Pick<PluginContext, 'db' | 'tokens'>,
  req: Pick<PluginRequest, 'header'>
): Promise<AgentRecord> {
  const token = req.header('token')
  const agent = token
    ? ((await ctx.db.table('agents').where('token_hash', ctx.tokens.hash(token)).first()) as AgentRecord | null)
    : null
  if (!agent || agent.revoked_at) throw new PluginFailure('devices.agent_refused', 404)
  return agent
}

export function peerIdOf(agentId: number, session: string): string {
  return `${agentId}.${session}`
}

export function parsePeerId(peerId: string): { agentId: number; session: string } {
  const [id, session] = peerId.split('.')
  return { agentId: Number(id), session: session ?? '' }
}

/** Is the agent's connection alive (a lease seen within AGENT_STALE_MS)? */
export function leaseAlive(agent: Pick<AgentRecord, 'session' | 'session_seen_at'>, now = Date.now()): boolean {
  if (!agent.session || !agent.session_seen_at) return false
  return now - new Date(agent.session_seen_at).getTime() < AGENT_STALE_MS
}

/**
 * The status an agent shows: CANCELLED once revoked, NO LICENSE past the licensed count (the oldest
 * agents hold the licences), WAITING until it first connects, ACTIVE while connected, else INACTIVE.
 */
export function statusOf(agent: AgentRecord, licensed: boolean, now = Date.now()): AgentStatus {
  if (agent.revoked_at) return 'CANCELLED'
  if (!licensed) return 'NO LICENSE'
  if (!agent.last_seen_at) return 'WAITING'
  return leaseAlive(agent, now) ? 'ACTIVE' : 'INACTIVE'
}

/** The ids of the agents that hold a licence: every one when the setting is 0, else the oldest N not revoked. */
export async function licensedIds(ctx: Pick<PluginContext, 'db' | 'settings'>): Promise<Set<number> | null> {
  const { licensedAgents } = await devicesSettings(ctx.settings)
  if (licensedAgents === 0) return null
  const rows = (await ctx.db
    .table('agents')
    .whereNull('revoked_at')
    .orderBy('id')
    .limit(licensedAgents)
    .select('id')) as { id: number }[]
  return new Set(rows.map((r) => Number(r.id)))
}

export async function listAgents(db: PluginDb, id?: number, licensed: Set<number> | null = null): Promise<AgentRow[]> {
  const query = db.table('agents').orderBy('id')
  if (id !== undefined) query.where('id', id)
  const agents = (await query) as AgentRecord[]
  const counts = (await db.table('machines').groupBy('agent_id').select('agent_id').count('id', 'n')) as {
    agent_id: number
    n: number
  }[]
  const machines = new Map(counts.map((c) => [Number(c.agent_id), Number(c.n)]))
  return agents.map((agent) => ({
    id: Number(agent.id),
    name: agent.name,
    status: statusOf(agent, licensed === null || licensed.has(Number(agent.id))),
    machines: machines.get(Number(agent.id)) ?? 0,
    last_seen_at: agent.last_seen_at ? new Date(agent.last_seen_at).toISOString() : null,
    hostname: agent.hostname,
    version: agent.version,
    token_hint: agent.revoked_at ? null : agent.token_hint,
  }))
}
