import { randomUUID } from 'node:crypto'
import { Queue as BullQueue, Worker, type Job } from 'bullmq'
import { Redis } from 'ioredis'
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  JobRegistry,
  type EnqueueOptions,
  type JobDefinition,
  type JobOutcome,
  type Queue,
  type QueueLogger,
} from './types.js'

export interface RedisQueueOptions {
  redisUrl: string
  /** Key prefix in Redis; separate installations (or test runs) use separate prefixes. */
  prefix?: string
  /** How often workers look for jobs whose worker died (BullMQ stalled check). */
  stalledIntervalMs?: number
  logger?: QueueLogger
}

/** The single BullMQ queue all job types share; workers dispatch by job name. */
const QUEUE_NAME = 'jobs'

/** BullMQ refuses ':' in custom ids; map it so callers may use any key. */
function bullJobId(id: string): string {
  return id.replaceAll(':', '.')
}

export class RedisQueue implements Queue {
  readonly driver = 'redis' as const
  private readonly registry = new JobRegistry()
  private readonly connection: Redis
  private readonly queue: BullQueue
  private worker?: Worker
  private abort = new AbortController()

  constructor(private readonly options: RedisQueueOptions) {
    // Workers block on Redis, which BullMQ requires to be retried forever (maxRetriesPerRequest null).
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true })
    this.queue = new BullQueue(QUEUE_NAME, { connection: this.connection, prefix: options.prefix ?? 'tramita' })
  }

  register(definition: JobDefinition): void {
    this.registry.add(definition)
  }

  names(): string[] {
    return this.registry.names()
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<{ id: string }> {
    const definition = this.registry.get(name)
    const job = await this.queue.add(name, payload ?? null, {
      jobId: bullJobId(opts.jobId ?? randomUUID()),
      delay: opts.delayMs,
      attempts: opts.attempts ?? definition.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? definition.backoffMs ?? DEFAULT_BACKOFF_MS },
      // Keep the last finished jobs (waitFor reads them; removing at once breaks that).
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    })
    return { id: job.id! }
  }

  async startWorker(opts: { concurrency?: number } = {}): Promise<void> {
    if (this.worker) return
    const stalled = this.options.stalledIntervalMs ?? 30_000
    this.abort = new AbortController()
    this.worker = new Worker(QUEUE_NAME, (job: Job) => this.process(job), {
      connection: this.connection.duplicate(),
      prefix: this.options.prefix ?? 'tramita',
      concurrency: Math.max(1, opts.concurrency ?? 5),
      stalledInterval: stalled,
      lockDuration: stalled,
      maxStalledCount: 2,
    })
    this.worker.on('failed', (job, error) => {
      this.options.logger?.warn(`job ${job?.name} (${job?.id}) failed on attempt ${job?.attemptsMade}: ${error.message}`)
    })
    this.worker.on('error', (error) => this.options.logger?.error(`queue worker error: ${error.message}`))
    await this.worker.waitUntilReady()
  }

  private process(job: Job): Promise<unknown> {
    return this.registry.get(job.name).handle(job.data, {
      id: job.id!,
      name: job.name,
      attempt: job.attemptsMade + 1,
      signal: this.abort.signal,
    })
  }

  async stopWorker(): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    // close() without force waits for the jobs in progress to finish.
    await worker?.close()
  }

  async waitFor(id: string, timeoutMs = 30_000): Promise<JobOutcome> {
    const deadline = Date.now() + timeoutMs
    const key = bullJobId(id)
    for (;;) {
      const job = await this.queue.getJob(key)
      if (!job) throw new Error(`No job with id "${id}"`)
      const state = await job.getState()
      if (state === 'completed') return { state, result: job.returnvalue, attempts: job.attemptsMade }
      if (state === 'failed') return { state, error: job.failedReason, attempts: job.attemptsMade }
      if (Date.now() > deadline) throw new Error(`Job "${id}" did not finish within ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  async health() {
    try {
      await this.connection.ping()
      return { ok: true, driver: this.driver }
    } catch (error) {
      return { ok: false, driver: this.driver, detail: (error as Error).message }
    }
  }

  async close(): Promise<void> {
    this.abort.abort()
    await this.stopWorker()
    await this.queue.close()
    await this.connection.quit().catch(() => {})
  }
}
