import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { AGENT_FILES_PATH } from '../../shared/protocol.js'
import { agentByToken } from '../agents/agents.js'

/** The largest file a synchronized folder moves (the documents plugin's upload cap) and a list's JSON. */
export const FILES_BODY_BYTES = 2 * 1024 ** 3 + 1024 ** 2
const MAX_LIST_BYTES = 64 * 1024 ** 2

const ERRORS = new Set(['not_found', 'not_directory', 'no_permission', 'outside_root', 'too_large', 'failed'])

/** A call of this agent still waiting for its answer (another agent's, or one given up on: 404). */
async function openCall(ctx: PluginContext, req: PluginRequest) {
  const agent = await agentByToken(ctx, req)
  const call = await ctx.db.table('file_calls').where('id', String(req.params.id).slice(0, 36)).first()
  if (!call || Number(call.agent_id) !== Number(agent.id) || call.status !== 'sent') {
    throw new PluginFailure('devices.job_not_found', 404)
  }
  return call as { id: string; op: string; storage_key: string | null; max_bytes: number | null }
}

function json(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new PluginFailure('devices.bad_answer')
  }
}

/**
 * The agent's side of a file call (server/files/calls.ts): GET fetches a write's bytes; POST is the
 * answer (an error, the file as written, the list, or a read's bytes, stored for the caller). An answer
 * is taken once, under the condition that the call still waits, so a repeated post changes nothing.
 */
export function filesRoutes(ctx: PluginContext): PluginRoute[] {
  return [
    {
      method: 'GET',
      path: AGENT_FILES_PATH,
      auth: 'public',
      rateLimit: { per: 'ip', max: 6000, windowSeconds: 60 },
      async handle(req) {
        const call = await openCall(ctx, req)
        if (call.op !== 'write' || !call.storage_key) throw new PluginFailure('devices.job_not_found', 404)
        return {
          kind: 'file',
          source: { key: call.storage_key },
          name: 'file',
          mime: 'application/octet-stream',
          disposition: 'attachment',
        }
      },
    },
    {
      method: 'POST',
      path: AGENT_FILES_PATH,
      auth: 'public',
      maxBytes: FILES_BODY_BYTES,
      rateLimit: { per: 'ip', max: 6000, windowSeconds: 60 },
      async handle(req) {
        const call = await openCall(ctx, req)
        const error = req.field('error')
        const answer: Record<string, unknown> = {}
        let stored: string | null = null
        if (error !== undefined) {
          answer.error = ERRORS.has(error) ? error : 'failed'
        } else if (call.op === 'list') {
          const listing = req.file('files')
          if (!listing || listing.size > MAX_LIST_BYTES) throw new PluginFailure('devices.bad_answer')
          answer.files = json(await readFile(listing.tmpPath, 'utf8'))
        } else if (call.op === 'read') {
          const upload = req.file('file')
          if (!upload) throw new PluginFailure('devices.bad_answer')
          answer.entry = json(req.field('entry'))
          if (call.max_bytes !== null && upload.size > Number(call.max_bytes)) answer.error = 'too_large'
          else stored = (await ctx.storage.put(createReadStream(upload.tmpPath), 'bin')).key
        } else if (call.op === 'write') {
          answer.entry = json(req.field('entry'))
        }
        const taken = await ctx.db
          .table('file_calls')
          .where('id', call.id)
          .where('status', 'sent')
          .update({ status: 'done', answer: JSON.stringify(answer), ...(stored ? { storage_key: stored } : {}) })
        // The caller gave up meanwhile: nobody will read these bytes.
        if (!taken && stored) await ctx.storage.delete(stored)
        return { taken: Boolean(taken) }
      },
    },
  ]
}
