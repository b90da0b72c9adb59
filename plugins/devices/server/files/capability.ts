import { createReadStream, createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  hasRole,
  type AgentFileEntry,
  type AgentFilesCapability,
  type AgentFilesError,
  type PluginContext,
} from '@tramita/plugin-api'
import type { ServerMessage } from '../../shared/protocol.js'
import { leaseAlive, peerIdOf, type AgentRecord } from '../agents/agents.js'
import { fileCall, liveAgent, type CallsCtx } from './calls.js'

/** Who may bind a folder to an agent's path: administrators (the agents' computers are the institution's). */
const BINDERS = ['superuser', 'supervisor']
const MAX_PATH = 1000

/** The users' side of the capability: set by the documents plugin when it registers (on every node). */
const listeners: ((agentId: number, root: string | null) => void)[] = []
let rootsOf: ((agentId: number) => Promise<string[]>) | null = null

function entry(value: unknown): AgentFileEntry | null {
  const e = value as Partial<AgentFileEntry> | null
  if (!e || typeof e.path !== 'string' || typeof e.size !== 'number' || typeof e.mtimeMs !== 'number') return null
  if (e.path.length > MAX_PATH || e.path.split('/').some((p) => p === '' || p === '.' || p === '..')) return null
  return { path: e.path, size: e.size, mtimeMs: Math.trunc(e.mtimeMs) }
}

function failed(answer: { error?: AgentFilesError }): { error: AgentFilesError } | null {
  return answer.error ? { error: answer.error } : null
}

/** Tells the listeners (the documents plugin's sync) that `root` on the agent may have changed. */
export function filesChanged(agentId: number, root: string | null): void {
  for (const listener of listeners) {
    try {
      listener(agentId, root)
    } catch {
      // A listener's failure is its own; the agent's message was handled.
    }
  }
}

/** The roots the agent is to watch, sent on its connection (at each hello and after a rewatch). */
export async function sendWatch(ctx: Pick<PluginContext, 'peers'>, agent: AgentRecord): Promise<void> {
  if (!rootsOf || !agent.session) return
  const roots = await rootsOf(Number(agent.id))
  const message: ServerMessage = { type: 'watch', roots }
  await ctx.peers.send(peerIdOf(Number(agent.id), agent.session), message)
}

/** `devices.files` (core/plugin-api capabilities.ts): synchronized folders' files on the agents. */
export function filesCapability(ctx: CallsCtx): AgentFilesCapability {
  return {
    async agents(who) {
      if (!hasRole(who, BINDERS)) return []
      const rows = (await ctx.db.table('agents').whereNull('revoked_at').orderBy('name')) as AgentRecord[]
      return rows.map((a) => ({ id: Number(a.id), name: a.name, online: leaseAlive(a) }))
    },

    async check(agentId, root) {
      if (!root || root.length > MAX_PATH) return 'not_found'
      const answer = await fileCall(ctx, agentId, { op: 'check', root })
      return answer.error ?? 'ok'
    },

    async list(agentId, root) {
      const answer = await fileCall(ctx, agentId, { op: 'list', root })
      if (answer.error) return { error: answer.error }
      const files = Array.isArray(answer.files) ? answer.files.map(entry) : null
      if (!files) return { error: 'failed' }
      return { files: files.filter((f): f is AgentFileEntry => f !== null) }
    },

    async read(agentId, root, relPath, dest, maxBytes) {
      const answer = await fileCall(ctx, agentId, { op: 'read', root, path: relPath, maxBytes })
      const key = answer.storage_key
      try {
        const bad = failed(answer)
        if (bad) return bad
        const read = entry(answer.entry)
        if (!key || !read) return { error: 'failed' }
        await pipeline(Readable.from(await ctx.storage.read(key)), createWriteStream(dest))
        const size = (await stat(dest)).size
        if (size > maxBytes) return { error: 'too_large' }
        return { ...read, size }
      } finally {
        if (key) await ctx.storage.delete(key)
      }
    },

    async write(agentId, root, relPath, source) {
      if (!(await liveAgent(ctx, agentId))) return { error: 'offline' }
      const stored = await ctx.storage.put(createReadStream(source), 'bin')
      const answer = await fileCall(ctx, agentId, { op: 'write', root, path: relPath }, stored.key)
      return failed(answer) ?? entry(answer.entry) ?? { error: 'failed' }
    },

    async remove(agentId, root, relPath) {
      const answer = await fileCall(ctx, agentId, { op: 'remove', root, path: relPath })
      return failed(answer) ?? 'ok'
    },

    watchedRoots(provider) {
      rootsOf = provider
    },

    async rewatch(agentId) {
      const agent = await liveAgent(ctx, agentId)
      if (agent) await sendWatch(ctx, agent)
    },

    onChange(listener) {
      listeners.push(listener)
    },
  }
}
