import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { affectedRows } from '#lib/db_result'
import { UnknownJobError } from '#jobs/registry'
import { errorMessage } from '#jobs/backoff'
import type { Queue, QueueLogger } from '#jobs/types'
import { platform } from '#services/platform'

/**
 * The job outbox (`job_outbox`): a job is written as a row, in the transaction of the change that
 * calls for it, and a relay moves rows to the queue. A commit therefore never waits on Redis, and a
 * job whose change committed is queued once Redis answers again, by whichever node's relay gets there.
 *
 * A row stays until its job has ended (the worker that ran it deletes it, Queue.onSettled): while it
 * waits, the relay queues it again by its key every REQUEUE_MS. The queue keeps a job of that key as
 * it is, so this costs nothing, unless the queue lost the job (a Redis restarted without its data,
 * measured in the load test: 2,081 of 7,750 mails never sent): then it runs, once.
 */

export interface OutboxJob {
  name: string
  payload: unknown
  /** The queue's jobId (dedupe); a random one when not given. */
  key?: string
}

/** How long a relay owns the rows it claimed; another node takes them over after that. */
const LEASE_MS = 30_000
/** After a failed move, the row waits this long before it is tried again. */
const RETRY_MS = 5_000
/** A job the queue does not know (its plugin disabled, say) is tried again far less often. */
const UNKNOWN_RETRY_MS = 10 * 60_000
/** How often a row already queued is queued again by its key, in case the queue lost its job. */
export const REQUEUE_MS = 60_000
const BATCH = 100
const DEFAULT_INTERVAL_MS = 5_000
/** Rows waiting longer than this make /health say the outbox is behind. */
export const OUTBOX_LAG_MS = 60_000

const later = (ms: number) => new Date(Date.now() + ms)

/** Writes jobs to the outbox through `client`: pass the change's transaction so both commit together. */
export async function stageJobs(client: QueryClientContract, jobs: OutboxJob[]): Promise<void> {
  if (jobs.length === 0) return
  const now = new Date()
  await client
    .knexQuery()
    .table('job_outbox')
    .insert(
      jobs.map((job) => ({
        job_name: job.name,
        payload: JSON.stringify(job.payload ?? null),
        idempotency_key: job.key ?? randomUUID(),
        created_at: now,
        attempts: 0,
      }))
    )
}

/** Queues a job outside any transaction, through the outbox: the caller never waits on Redis. */
export async function queueJob(job: OutboxJob): Promise<void> {
  await stageJobs(db.connection(), [job])
  platform().outbox.kick()
}

interface OutboxRow {
  id: number
  job_name: string
  payload: string
  idempotency_key: string | null
}

/** Moves outbox rows to the queue: on a timer, and at once when kick()ed after a commit. */
export class OutboxRelay {
  private timer?: NodeJS.Timeout
  private running?: Promise<number>
  private again = false
  private stopped = false
  /** After a failed pass, kicks wait for the timer until then (the database or the queue is down). */
  private quietUntil = 0

  constructor(
    private readonly queue: Queue,
    private readonly logger: QueueLogger,
    private readonly intervalMs = DEFAULT_INTERVAL_MS,
    private readonly requeueMs = REQUEUE_MS
  ) {
    // Jobs queued directly (not through the outbox) have no row: the delete finds none.
    queue.onSettled(async (key) => {
      await db.from('job_outbox').where('idempotency_key', key).delete()
    })
  }

  start(): void {
    if (this.timer) return
    this.stopped = false
    this.timer = setInterval(() => this.kick(true), this.intervalMs).unref()
    this.kick(true)
  }

  /** After stop() no pass starts, even from a kick(): the database may be closing. */
  stop(): Promise<unknown> | undefined {
    this.stopped = true
    clearInterval(this.timer)
    this.timer = undefined
    return this.running
  }

  /**
   * Runs a pass soon without waiting for it; never throws (the timer tries again). Every save kicks:
   * while passes fail, kicks other than the timer's are dropped, so an outage costs one pass and one
   * warning per interval, not one per save (the load test saw 2,153 warnings during one MariaDB restart).
   */
  kick(fromTimer = false): void {
    if (!fromTimer && Date.now() < this.quietUntil) return
    // A pass is running: it goes round once more, and its failure is reported once, by its own kick.
    if (this.running) {
      this.again = true
      return
    }
    this.runOnce().catch((error) => {
      this.quietUntil = Date.now() + this.intervalMs
      this.logger.warn(`job outbox: ${errorMessage(error)}`)
    })
  }

  /** One pass (a pass asked for while one runs follows it); resolves with the rows moved. */
  async runOnce(): Promise<number> {
    if (this.stopped) return 0
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      let moved = 0
      do {
        this.again = false
        moved += await this.pass()
      } while (this.again)
      return moved
    })().finally(() => (this.running = undefined))
    return this.running
  }

  private async pass(): Promise<number> {
    let moved = 0
    for (;;) {
      const rows = (await db
        .from('job_outbox')
        .where((q) => q.whereNull('claimed_until').orWhere('claimed_until', '<', new Date()))
        .orderBy('id')
        .limit(BATCH)
        .select('id', 'job_name', 'payload', 'idempotency_key')) as OutboxRow[]
      for (const row of rows) {
        if (!(await this.claim(row.id))) continue
        try {
          await this.queue.enqueue(row.job_name, JSON.parse(row.payload), {
            jobId: row.idempotency_key ?? undefined,
          })
        } catch (error) {
          const unknown = error instanceof UnknownJobError
          await db
            .from('job_outbox')
            .where('id', row.id)
            .update({
              claimed_until: later(unknown ? UNKNOWN_RETRY_MS : RETRY_MS),
              last_error: errorMessage(error).slice(0, 500),
            })
          if (unknown) continue
          // The queue is unreachable: the other rows would fail the same way; the timer comes back.
          this.logger.warn(`job outbox: ${row.job_name} not queued yet: ${errorMessage(error)}`)
          return moved
        }
        // Kept until the job ends; looked at again (queued again by its key) after requeueMs.
        await db
          .from('job_outbox')
          .where('id', row.id)
          .update({ queued_at: db.raw('coalesce(queued_at, ?)', [new Date()]), claimed_until: later(this.requeueMs) })
        moved++
      }
      if (rows.length < BATCH) return moved
    }
  }

  /** A conditional update: of several relays only one takes a row. */
  private async claim(id: number): Promise<boolean> {
    const now = new Date()
    const taken = await db
      .from('job_outbox')
      .where('id', id)
      .where((q) => q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
      .update({ claimed_until: later(LEASE_MS), attempted_at: now, attempts: db.raw('attempts + 1') })
    return affectedRows(taken) === 1
  }
}

/** Rows not yet queued and the oldest one's age, for /health. */
export async function outboxBacklog(): Promise<{ waiting: number; oldestMs: number }> {
  const row = (await db
    .from('job_outbox')
    .whereNull('queued_at')
    .count('* as n')
    .min('created_at as oldest')
    .first()) as {
    n: number | string
    oldest: Date | string | number | null
  } | null
  const waiting = Number(row?.n ?? 0)
  if (!waiting || row?.oldest === null || row?.oldest === undefined) return { waiting, oldestMs: 0 }
  return { waiting, oldestMs: Math.max(0, Date.now() - new Date(row.oldest).getTime()) }
}
