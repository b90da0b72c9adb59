import type { PluginContext, PluginJob, PluginSettings } from '@tramita/plugin-api'
import { devicesSettings } from '../settings.js'
import { settle, tellFailed, type ResultCtx } from './results.js'
import { dropOldSignatures } from '../signatures/requests.js'
import { dropStaleCalls } from '../files/calls.js'

/**
 * Jobs whose agent never answered within `jobMinutes` (it went away right after the job was placed):
 * failed as "agent off or disconnected" and their people told, so a scan nobody waits for any more is
 * not made, nor a print out of date printed, when the agent comes back days later (unfinishedOrders
 * skips them too). Hourly, once across nodes; a second run finds nothing to do.
 */
export const EXPIRE_JOB = 'expire_jobs'

let bound: (ResultCtx & Pick<PluginContext, 'settings'>) | null = null

/** Binds the context for the job and declares its schedule (in `register`). */
export function bindExpiry(ctx: PluginContext): void {
  bound = ctx
  ctx.jobs.every('hourly', EXPIRE_JOB)
}

/** The oldest moment a job still waiting for its agent may have been placed. */
export async function liveSince(settings: PluginSettings, now = Date.now()): Promise<Date> {
  const { jobMinutes } = await devicesSettings(settings)
  return new Date(now - jobMinutes * 60_000)
}

export const expiryJobs: PluginJob[] = [
  {
    name: EXPIRE_JOB,
    async handle() {
      if (!bound) throw new Error('devices: the expiry job ran before the plugin registered')
      const ctx = bound
      const old = (await ctx.db
        .table('jobs')
        .where('status', 'sent')
        .where('created_at', '<', await liveSince(ctx.settings))
        .select('id')) as { id: string }[]
      const failed: string[] = []
      for (const { id } of old) {
        if (await settle(ctx, null, id, { status: 'failed', error: 'agent_off' })) failed.push(id)
      }
      await tellFailed(ctx, failed)
      // Signature requests a day past their end, with them (rows only: their pictures are staged files).
      await dropOldSignatures(ctx)
      // File calls a caller left behind (it died while waiting), with the bytes they hold.
      await dropStaleCalls(ctx)
      return { expired: failed.length }
    },
  },
]
