import { DelayedError, Job, Queue as BullQueue, QueueEvents, Worker, type RedisQueueBackend } from 'bullmq'
import { DEFAULT_WORKER_CONCURRENCY, KEEP_COMPLETED, KEEP_FAILED, errorMessage, positiveInt } from './backoff.js'
import { JobRegistry, NameLimiter } from './registry.js'
import { MAX_DEFERRALS, RunLater, deferUntil } from './run_later.js'
import { requestRedisOptions, waitingRedisOptions, watchRedis, withTimeout } from './redis_options.js'
import type {
  EnqueueOptions,
  JobDefinition,
  JobOutcome,
  Queue,
  QueueCounts,
  QueueHealth,
  QueueLogger,
} from './types.js'

/** The one BullMQ queue all job types share; workers dispatch on the job's name. */
export const QUEUE_NAME = 'tramita'
export const DEFAULT_PREFIX = 'tramita'
export const DEFAULT_STALLED_INTERVAL_MS = 30_000
/** Safety net of waitFor() besides QueueEvents (an event can fall between the state check and the subscription). */
const WAIT_POLL_MS = 500
const HEALTH_TIMEOUT_MS = 2000
/** An enqueue gives up after this (the connection may still be opening after an outage at start). */
const ENQUEUE_TIMEOUT_MS = 5000

export interface BullMqQueueOptions {
  redisUrl: string
  prefix?: string
  logger: QueueLogger
  stalledIntervalMs?: number
  lockDurationMs?: number
}

/**
 * BullMQ rejects custom ids that look like integers or contain ':' (plugin keys such as `documents:ocr:42` do).
 * Escape them; ids without '%' or ':' that are not integers are kept as they are.
 */
export function toBullJobId(jobId: string): string {
  const escaped = jobId.replaceAll('%', '%25').replaceAll(':', '%3A')
  return `${Number.parseInt(escaped, 10)}` === escaped ? `%23${escaped}` : escaped
}

/** The jobId the caller gave, from BullMQ's (toBullJobId undone). */
export function fromBullJobId(bullId: string): string {
  const plain = /^%23\d+$/.test(bullId) ? bullId.slice(3) : bullId
  return plain.replaceAll('%3A', ':').replaceAll('%25', '%')
}

/**
 * Ends the Redis clients BullMQ left open after a close: when Redis went away just before it, QUIT is
 * refused, BullMQ drops its listeners and the client would go on reconnecting, keeping the process alive.
 */
async function endClients(owner: { getBackend(): RedisQueueBackend }): Promise<void> {
  const backend = owner.getBackend()
  for (const pending of [backend.client, backend.blockingClient]) {
    if (!pending) continue
    const client = await withTimeout(pending, 1000, 'A job queue connection').catch(() => undefined)
    if (client && client.status !== 'end') client.disconnect()
  }
}

/**
 * How long a close may wait. Redis can die between the check that it is up and the graceful close, which
 * then waits for it forever: past this, the close goes on and endClients() drops the connections.
 */
const CLOSE_WAIT_MS = 5000

async function closeWithin(closing: Promise<unknown>, what: string, logger: { warn(message: string): void }) {
  await withTimeout(closing, CLOSE_WAIT_MS, what).catch((error) => logger.warn(`${what}: ${errorMessage(error)}`))
}

/** BullMQ driver: one queue, workers run every registered job; a job whose worker dies is run again (stalled jobs). */
export class BullMqQueue implements Queue {
  readonly driver = 'redis' as const
  private readonly registry = new JobRegistry()
  private readonly limiter = new NameLimiter()
  private readonly queue: BullQueue
  private readonly prefix: string
  private readonly stalledIntervalMs: number
  private readonly lockDurationMs: number
  private worker?: Worker
  private events?: Promise<QueueEvents>
  /** waitFor() callbacks by job id, poked by QueueEvents. */
  private readonly watchers = new Map<string, Set<() => void>>()
  private readonly pendingWaits = new Set<(error: Error) => void>()
  private readonly controllers = new Set<AbortController>()
  private closed = false

  constructor(private readonly opts: BullMqQueueOptions) {
    this.prefix = opts.prefix ?? DEFAULT_PREFIX
    this.stalledIntervalMs = positiveInt(opts.stalledIntervalMs, 'stalledIntervalMs') ?? DEFAULT_STALLED_INTERVAL_MS
    this.lockDurationMs = positiveInt(opts.lockDurationMs, 'lockDurationMs') ?? this.stalledIntervalMs
    // The producer connection fails fast while Redis is down, so enqueue() errs instead of hanging.
    this.queue = new BullQueue(QUEUE_NAME, {
      connection: { url: opts.redisUrl, ...requestRedisOptions },
      prefix: this.prefix,
    })
    watchRedis(this.queue, 'Job queue', opts.logger)
  }

  register(definition: JobDefinition): void {
    this.registry.add(definition)
  }

  names(): string[] {
    return this.registry.names()
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<{ id: string }> {
    if (this.closed) throw new Error('The queue is closed')
    const { jobId, attempts, backoffMs, delayMs, uniqueForMs } = this.registry.resolve(name, opts)
    const bullId = jobId === undefined ? undefined : toBullJobId(jobId)
    // An existing job with the same id is left as it is (BullMQ's dedupe by jobId); with uniqueForMs,
    // BullMQ's deduplication key (kept for its ttl, whatever becomes of the job) refuses it too.
    const added = this.queue.add(name, payload ?? null, {
      jobId: bullId,
      deduplication: bullId && uniqueForMs ? { id: bullId, ttl: uniqueForMs } : undefined,
      delay: delayMs,
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      // Not `true`: removing finished jobs at once breaks waitFor and dedupe.
      removeOnComplete: { count: KEEP_COMPLETED },
      removeOnFail: { count: KEEP_FAILED },
    })
    // An add that times out may still land later; callers retry with the same jobId, which dedupes.
    const job = await withTimeout(added, ENQUEUE_TIMEOUT_MS, `Queueing job ${name}`)
    return { id: job.id! }
  }

  async startWorker(opts: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('The queue is closed')
    if (this.worker) return
    const worker = new Worker(QUEUE_NAME, (job, token, signal) => this.process(job, token, signal), {
      connection: { url: this.opts.redisUrl, ...waitingRedisOptions },
      prefix: this.prefix,
      concurrency: positiveInt(opts.concurrency, 'concurrency') ?? DEFAULT_WORKER_CONCURRENCY,
      stalledInterval: this.stalledIntervalMs,
      lockDuration: this.lockDurationMs,
    })
    const { logger } = this.opts
    watchRedis(worker, 'Job worker', logger)
    worker.on('failed', (job, error) => {
      if (!job) return
      const final = job.attemptsMade >= (job.opts.attempts ?? 1)
      const line = `Job ${job.name} (${job.id}) failed on run ${job.attemptsStarted}: ${errorMessage(error)}`
      if (final) logger.error(`${line}; giving up`)
      else logger.warn(line)
    })
    worker.on('stalled', (jobId) => logger.warn(`Job ${jobId} stalled (its worker died?); it will run again`))
    this.worker = worker
    await worker.waitUntilReady()
  }

  async stopWorker(): Promise<void> {
    await this.closeWorker(!(await this.redisUp()))
  }

  /** `force` drops the connections at once: while Redis is away a graceful close cannot finish. */
  private async closeWorker(force: boolean): Promise<void> {
    const worker = this.worker
    if (!worker) return
    this.worker = undefined
    await closeWithin(worker.close(force), 'Closing the job worker', this.opts.logger)
    await endClients(worker)
  }

  /** Whether the producer connection is up now (not waited for longer than a second). */
  private async redisUp(): Promise<boolean> {
    const client = await withTimeout(this.queue.getBackend().client, 1000, 'The job queue connection').catch(
      () => undefined
    )
    return client?.status === 'ready'
  }

  async waitFor(id: string, timeoutMs?: number): Promise<JobOutcome> {
    if (this.closed) throw new Error('The queue is closed')
    const jobId = await this.resolveId(id)
    // Events make waitFor prompt; if they cannot be opened, the poll below still gets there.
    await withTimeout(this.queueEvents(), HEALTH_TIMEOUT_MS, 'Opening the job events').catch((error) =>
      this.opts.logger.warn(errorMessage(error))
    )
    return new Promise<JobOutcome>((resolve, reject) => {
      let settled = false
      let checking = false
      let again = false
      let timer: NodeJS.Timeout | undefined
      const settle = (fn: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        clearInterval(poll)
        const set = this.watchers.get(jobId)
        set?.delete(check)
        if (set?.size === 0) this.watchers.delete(jobId)
        this.pendingWaits.delete(onClose)
        fn()
      }
      const check = (): void => {
        if (settled) return
        if (checking) {
          again = true
          return
        }
        checking = true
        this.outcome(jobId).then(
          (outcome) => {
            checking = false
            if (outcome) settle(() => resolve(outcome))
            else if (again) {
              again = false
              check()
            }
          },
          (error: Error) => {
            checking = false
            settle(() => reject(error))
          }
        )
      }
      const onClose = (error: Error) => settle(() => reject(error))
      const poll = setInterval(check, WAIT_POLL_MS)
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => settle(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for job "${id}"`))),
          timeoutMs
        )
      }
      this.pendingWaits.add(onClose)
      const set = this.watchers.get(jobId) ?? new Set()
      set.add(check)
      this.watchers.set(jobId, set)
      check()
    })
  }

  async counts(): Promise<QueueCounts> {
    const [jobs, workers] = await Promise.all([
      this.queue.getJobCounts('waiting', 'active', 'delayed'),
      this.queue.getWorkersCount(),
    ])
    return { waiting: jobs.waiting ?? 0, active: jobs.active ?? 0, delayed: jobs.delayed ?? 0, workers }
  }

  async health(): Promise<QueueHealth> {
    try {
      const detail = await withTimeout(
        (async () => {
          // A round trip to Redis is the probe.
          const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed')
          const worker = this.worker ? 'running here' : 'not running here'
          return `worker ${worker}; ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed`
        })(),
        HEALTH_TIMEOUT_MS,
        'Redis health check'
      )
      return { ok: !this.closed, driver: this.driver, detail: this.closed ? 'closed' : detail }
    } catch (error) {
      return { ok: false, driver: this.driver, detail: errorMessage(error) }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const controller of this.controllers) controller.abort(new Error('The queue is closing'))
    // With Redis away, QUIT cannot be sent: connections are dropped instead, or they would go on
    // reconnecting (with no listener left for their errors) and keep the process alive.
    const up = await this.redisUp()
    await this.closeWorker(!up)
    for (const reject of [...this.pendingWaits]) reject(new Error('The queue is closed'))
    const events = this.events
    this.events = undefined
    if (events) {
      await events
        .then(async (e) => {
          await closeWithin(up ? e.close() : e.disconnect(), 'Closing the job events', this.opts.logger)
          await endClients(e)
        })
        .catch(() => {})
    }
    if (!up)
      (
        await withTimeout(this.queue.getBackend().client, 1000, 'The job queue connection').catch(() => undefined)
      )?.disconnect()
    await closeWithin(this.queue.close(), 'Closing the job queue', this.opts.logger)
    await endClients(this.queue)
  }

  private async process(job: Job, token: string | undefined, bullSignal?: AbortSignal): Promise<unknown> {
    const definition = this.registry.get(job.name)
    const controller = new AbortController()
    const forward = () => controller.abort(bullSignal?.reason)
    bullSignal?.addEventListener('abort', forward, { once: true })
    this.controllers.add(controller)
    await this.limiter.acquire(job.name, definition.concurrency)
    try {
      const result = await definition.handle(job.data, {
        id: job.id!,
        name: job.name,
        // attemptsStarted is counted when the job is taken, so it includes a run cut short by a dead worker.
        attempt: Math.max(job.attemptsStarted ?? 0, job.attemptsMade + 1),
        signal: controller.signal,
      })
      await this.settle(job)
      return result
    } catch (error) {
      // Put off without spending an attempt (delayed jobs keep attemptsMade; each run counts as started).
      const deferrals = (job.attemptsStarted ?? 0) - 1 - job.attemptsMade
      if (error instanceof RunLater && token && deferrals < MAX_DEFERRALS) {
        await job.moveToDelayed(deferUntil(error), token)
        throw new DelayedError(error.message)
      }
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.settle(job)
      throw error
    } finally {
      this.limiter.release(job.name)
      this.controllers.delete(controller)
      bullSignal?.removeEventListener('abort', forward)
    }
  }

  private settled?: (jobId: string) => Promise<void>

  onSettled(handler: (jobId: string) => Promise<void>): void {
    this.settled = handler
  }

  /** The settle handler never fails the job: the job's work is done (or given up) either way. */
  private async settle(job: Job): Promise<void> {
    await this.settled?.(fromBullJobId(job.id!)).catch((error: unknown) =>
      this.opts.logger.warn(`Job ${job.name} (${job.id}) ended, but: ${errorMessage(error)}`)
    )
  }

  /** The id as returned by enqueue(), or the caller's own jobId. */
  private async resolveId(id: string): Promise<string> {
    if ((await this.queue.getJobState(id)) !== 'unknown') return id
    const escaped = toBullJobId(id)
    if (escaped !== id && (await this.queue.getJobState(escaped)) !== 'unknown') return escaped
    throw new Error(`Unknown job id "${id}" (never enqueued, or no longer kept)`)
  }

  private async outcome(jobId: string): Promise<JobOutcome | undefined> {
    // State first, then the job: its return value is written before it is moved to completed.
    const state = await this.queue.getJobState(jobId)
    if (state === 'unknown') throw new Error(`Job "${jobId}" is no longer kept`)
    if (state !== 'completed' && state !== 'failed') return undefined
    const job = await Job.fromId(this.queue, jobId)
    if (!job) throw new Error(`Job "${jobId}" is no longer kept`)
    const attempts = Math.max(job.attemptsStarted ?? 0, job.attemptsMade)
    return state === 'completed'
      ? { state, result: job.returnvalue ?? undefined, attempts }
      : { state, error: job.failedReason, attempts }
  }

  /** One QueueEvents per queue, opened on the first waitFor(). */
  private queueEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const events = new QueueEvents(QUEUE_NAME, {
        connection: { url: this.opts.redisUrl, ...waitingRedisOptions },
        prefix: this.prefix,
      })
      watchRedis(events, 'Job events', this.opts.logger)
      const poke = ({ jobId }: { jobId: string }) => this.watchers.get(jobId)?.forEach((check) => check())
      events.on('completed', poke)
      events.on('failed', poke)
      await events.waitUntilReady()
      return events
    })()
    this.events.catch(() => (this.events = undefined))
    return this.events
  }
}
