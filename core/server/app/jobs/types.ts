/**
 * One job API, two drivers:
 * - `redis`: BullMQ on one Redis queue (named `tramita`); `tramita worker` processes run the registered jobs.
 * - `memory`: an in-process runner, used when REDIS_URL is not set; the app process is its own worker.
 *
 * HANDLERS MUST BE IDEMPOTENT. A job can run more than once: it is retried after a failure, and with Redis
 * it runs again on another worker when its worker dies mid-job (stalled-job recovery). Write handlers so
 * that a repeat finds the work already done (check-then-act on a unique key, upserts, deterministic file
 * names) and does nothing harmful.
 *
 * Payloads and results must be JSON-serialisable (the Redis driver stores them as JSON; the memory driver
 * copies them through JSON too, so a handler that works in one mode works in the other).
 */

/** Job handlers and their context are part of the plugin contract; the queue uses the same types. */
import type { JobContext, PluginJob } from '@tramita/plugin-api'

export type { JobContext }
export type JobDefinition<P = any, R = unknown> = PluginJob<P, R>

export interface EnqueueOptions {
  /** Idempotency key: enqueuing the same id again while the job is kept (last 1000 completed / 5000 failed) runs it once. */
  jobId?: string
  /**
   * With jobId: enqueues of that id within this long after the first are ignored even once the job is
   * no longer kept (a busy queue drops finished jobs within minutes; a schedule's period is longer).
   */
  uniqueForMs?: number
  delayMs?: number
  attempts?: number
  backoffMs?: number
}

export interface JobOutcome {
  state: 'completed' | 'failed'
  result?: unknown
  error?: string
  /** How many times the job was started. */
  attempts: number
}

export interface QueueHealth {
  ok: boolean
  driver: 'redis' | 'memory'
  detail?: string
}

/** What a queue holds now, read from its own state. */
export interface QueueCounts {
  /** Ready to run, not yet taken by a worker. */
  waiting: number
  active: number
  delayed: number
  /** Workers taking this queue's jobs: with Redis every process's, in memory this process's (0 or 1). */
  workers: number
}

export interface QueueLogger {
  info(...args: unknown[]): void
  warn(...args: unknown[]): void
  error(...args: unknown[]): void
}

export interface Queue {
  readonly driver: 'redis' | 'memory'
  /** Adds a job type (explicit registry). A duplicate name throws. */
  register(definition: JobDefinition): void
  names(): string[]
  /** Queues a job of a registered type; an unknown name throws an UnknownJobError listing the known ones. */
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<{ id: string }>
  /** Begins processing registered jobs in this process. Calling it again while running does nothing. */
  startWorker(opts?: { concurrency?: number }): Promise<void>
  /** Graceful: takes no new jobs and resolves once the running ones have finished. */
  stopWorker(): Promise<void>
  /**
   * Resolves when the job has completed or failed for good (use the id returned by enqueue()).
   * Rejects on an unknown id, after `timeoutMs` (default: no limit), or when the queue is closed.
   */
  waitFor(id: string, timeoutMs?: number): Promise<JobOutcome>
  health(): Promise<QueueHealth>
  /** Jobs by state and the workers taking them, as the queue holds them now (tests read it to know, not guess). */
  counts(): Promise<QueueCounts>
  /**
   * Calls `handler` when a job this process's worker ran has ended (completed, or failed for good), with
   * its jobId as enqueue() was given it (or the generated one). One handler; a failing one is logged.
   */
  onSettled(handler: (jobId: string) => Promise<void>): void
  /** Aborts running jobs' signals, waits for them, and releases timers and connections. */
  close(): Promise<void>
}

export interface CreateQueueOptions {
  /** BullMQ on this Redis when set; the in-process runner otherwise. */
  redisUrl?: string
  /** Redis key prefix (default `tramita`); lets several installations or test runs share one Redis. */
  prefix?: string
  logger?: QueueLogger
  /** Redis only: how often workers look for jobs whose worker died (default 30000 ms). */
  stalledIntervalMs?: number
  /** Redis only: how long a job's lock lasts without renewal (default: stalledIntervalMs). */
  lockDurationMs?: number
}
