import { randomBytes } from 'node:crypto'
import type { PluginContext, PluginPeerEndpoint } from '@tramita/plugin-api'
import {
  AGENT_SOCKET_PATH,
  CLOSE_IN_USE,
  CLOSE_REVOKED,
  CLOSE_UNSUPPORTED,
  INSTANCE_HEADER,
  PROTOCOL_VERSION,
  type ServerMessage,
} from '../../shared/protocol.js'
import { parseAgentMessage } from './messages.js'
import { leaseAlive, licensedIds, parsePeerId, peerIdOf, statusOf, type AgentRecord } from './agents.js'
import { recordMachines } from '../machines/report.js'
import { applyResult, unfinishedOrders } from '../jobs/results.js'
import { liveSince } from '../jobs/expire.js'
import { signFailed } from '../signatures/requests.js'
import { filesChanged, sendWatch } from '../files/capability.js'

type Ctx = Pick<
  PluginContext,
  | 'db'
  | 'tokens'
  | 'peers'
  | 'settings'
  | 'sockets'
  | 'storage'
  | 'texts'
  | 'logger'
  | 'people'
  | 'caseFiles'
  | 'capabilities'
  | 'jobs'
>

const INSTANCE = /^[A-Za-z0-9_-]{8,40}$/

/**
 * The agents' socket (protocol.ts). A token admits one connection at a time: its lease (the agent's
 * `session`) is taken in a transaction, refreshed by every message, and let go at the close. The same
 * agent process reconnecting (after a server restart, its old link not yet seen dead) takes it over; a
 * second process with the token is refused while the lease is alive.
 */
export function agentEndpoint(ctx: Ctx): PluginPeerEndpoint {
  const send = (peerId: string, message: ServerMessage) => ctx.peers.send(peerId, message)

  /** The agent of a live connection, or null when its lease was taken or the token revoked since. */
  const current = async (peerId: string) => {
    const { agentId, session } = parsePeerId(peerId)
    const agent = (await ctx.db.table('agents').where('id', agentId).first()) as AgentRecord | null
    if (!agent || agent.revoked_at) {
      await ctx.peers.disconnect(peerId, CLOSE_REVOKED, 'token revoked')
      return null
    }
    if (agent.session !== session) {
      await ctx.peers.disconnect(peerId, CLOSE_IN_USE, 'another connection holds this token')
      return null
    }
    return agent
  }

  return {
    path: AGENT_SOCKET_PATH,

    async admit(token, _ip, header) {
      const instance = header(INSTANCE_HEADER) ?? ''
      if (!INSTANCE.test(instance)) return { refuse: 426, reason: `the ${INSTANCE_HEADER} header is required` }
      const hash = ctx.tokens.hash(token)
      const session = randomBytes(12).toString('hex')
      type Outcome = { refuse: 401 | 409; reason: string } | { agent: AgentRecord }
      const outcome = await ctx.db.transaction(async (trx): Promise<Outcome> => {
        const agent = (await trx.table('agents').where('token_hash', hash).forUpdate().first()) as AgentRecord | null
        if (!agent) return { refuse: 401, reason: 'unknown token' }
        if (agent.revoked_at) return { refuse: 401, reason: 'token revoked' }
        if (leaseAlive(agent) && agent.instance !== instance) {
          return { refuse: 409, reason: 'another agent is connected with this token' }
        }
        const now = new Date()
        await trx.table('agents').where('id', agent.id).update({
          session,
          instance,
          session_seen_at: now,
          last_seen_at: now,
          status: 'ACTIVE',
          updated_at: now,
        })
        return { agent }
      })
      if ('refuse' in outcome) return outcome
      // The same process's older link, if a node still holds it, is closed (it reconnected already).
      const previous = outcome.agent.session
      if (previous) await ctx.peers.disconnect(peerIdOf(Number(outcome.agent.id), previous), CLOSE_IN_USE, 'replaced')
      return { peerId: peerIdOf(Number(outcome.agent.id), session) }
    },

    async received(peerId, raw) {
      const message = parseAgentMessage(raw)
      const agent = await current(peerId)
      if (!agent) return
      const agentId = Number(agent.id)
      const now = new Date()
      await ctx.db.table('agents').where('id', agentId).update({ session_seen_at: now, last_seen_at: now })
      if (message.type === 'hello') {
        if (message.protocol !== PROTOCOL_VERSION) {
          await ctx.peers.disconnect(peerId, CLOSE_UNSUPPORTED, `protocol ${PROTOCOL_VERSION} is required`)
          return
        }
        await ctx.db
          .table('agents')
          .where('id', agentId)
          .update({
            hostname: message.hostname,
            version: message.version,
            can_sign: message.sign === true,
            updated_at: now,
          })
        await recordMachines(ctx.db, agentId, message.machines)
        const licensed = await licensedIds(ctx)
        const mayWork = licensed === null || licensed.has(agentId)
        const status = statusOf({ ...agent, session_seen_at: now, last_seen_at: now }, mayWork)
        await send(peerId, { type: 'welcome', agentId, name: agent.name, status })
        // Everything still to do, at every hello: a job sent before a restart or an outage is not lost.
        if (mayWork) {
          const jobs = await unfinishedOrders(ctx.db, agentId, await liveSince(ctx.settings))
          await send(peerId, { type: 'jobs', jobs })
        }
        // Synchronized folders: what to watch, and a sync, since anything may have changed while it was away.
        await sendWatch(ctx, { ...agent, session: parsePeerId(peerId).session })
        filesChanged(agentId, null)
        return
      }
      if (message.type === 'machines') {
        await recordMachines(ctx.db, agentId, message.machines)
        return
      }
      if (message.type === 'files_changed') {
        filesChanged(agentId, message.root)
        return
      }
      if (message.type === 'sign_failed') {
        await signFailed(ctx, agentId, message.token, message.detail)
        return
      }
      await applyResult(ctx, agentId, message)
      await send(peerId, { type: 'ack', id: message.id })
    },

    async closed(peerId) {
      const { agentId, session } = parsePeerId(peerId)
      // Only this connection's lease: a newer one may hold the agent already.
      await ctx.db
        .table('agents')
        .where('id', agentId)
        .where('session', session)
        .update({ session: null, session_seen_at: null, status: 'INACTIVE', updated_at: new Date() })
    },
  }
}
