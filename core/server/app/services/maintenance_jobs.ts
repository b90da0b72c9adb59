import { DateTime } from 'luxon'
import Session from '#models/session'
import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#lib/db_result'
import { SESSION_IDLE_MINUTES } from '#services/session_service'
import { pruneStaged } from '#services/uploads/staging'

/** Sessions revoked, expired or idle past the limit are deleted after this grace period (for audits). */
const KEEP_DEAD_SESSIONS_DAYS = 7

/**
 * `core:prune-sessions`: deletes dead sessions. Idempotent (a second run finds nothing to delete), so
 * several app nodes may enqueue it; the hourly job id makes the queue run it once per hour.
 */
export const pruneSessionsJob = {
  name: 'core:prune-sessions',
  attempts: 3,
  backoffMs: 5_000,
  async handle(): Promise<{ deleted: number }> {
    const cutoff = DateTime.now().minus({ days: KEEP_DEAD_SESSIONS_DAYS })
    const idleCutoff = cutoff.minus({ minutes: SESSION_IDLE_MINUTES })
    const deleted = await Session.query()
      .where('expires_at', '<', cutoff.toSQL({ includeOffset: false })!)
      .orWhere('last_seen_at', '<', idleCutoff.toSQL({ includeOffset: false })!)
      .orWhere('revoked_at', '<', cutoff.toSQL({ includeOffset: false })!)
      .delete()
    return { deleted: affectedRows(deleted) }
  },
}

/** Uploads no save took within this time were abandoned (a form left open longer uploads again). */
export const STAGED_UPLOAD_HOURS = 24

/**
 * `core:prune-uploads`: deletes staged uploads older than STAGED_UPLOAD_HOURS, objects and rows.
 * Idempotent like the session job: a repeat finds nothing, a half-done removal is finished.
 */
export const pruneUploadsJob = {
  name: 'core:prune-uploads',
  attempts: 3,
  backoffMs: 5_000,
  async handle(): Promise<{ deleted: number }> {
    const cutoff = new Date(Date.now() - STAGED_UPLOAD_HOURS * 3_600_000)
    return { deleted: await pruneStaged(cutoff) }
  },
}

/** A job run again after this long is long gone from the queue; its recorded effects can go. */
export const KEEP_JOB_EFFECTS_DAYS = 30

/** `core:prune-job-effects`: deletes job_effects records older than KEEP_JOB_EFFECTS_DAYS. Idempotent. */
export const pruneJobEffectsJob = {
  name: 'core:prune-job-effects',
  attempts: 3,
  backoffMs: 5_000,
  async handle(): Promise<{ deleted: number }> {
    const cutoff = new Date(Date.now() - KEEP_JOB_EFFECTS_DAYS * 86_400_000)
    return { deleted: affectedRows(await db.from('job_effects').where('created_at', '<', cutoff).delete()) }
  },
}
