import { randomUUID } from 'node:crypto'
import {
  DEFAULT_WORKER_CONCURRENCY,
  KEEP_COMPLETED,
  KEEP_FAILED,
  backoffDelay,
  errorMessage,
  positiveInt,
} from './backoff.js'
import { JobRegistry, NameLimiter } from './registry.js'
import { MAX_DEFERRALS, RunLater, deferUntil } from './run_later.js'
import type {
  EnqueueOptions,
  JobDefinition,
  JobOutcome,
  Queue,
  QueueCounts,
  QueueHealth,
  QueueLogger,
} from './types.js'

interface MemoryJob {
  id: string
  name: string
  payload: unknown
  attempts: number
  backoffMs: number
  /** Runs started so far. */
  started: number
  /** Of those, runs put off (RunLater), which spend no attempt. */
  deferrals: number
  state: 'waiting' | 'delayed' | 'active' | 'completed' | 'failed'
  timer?: NodeJS.Timeout
  result?: unknown
  error?: string
  waiters: Array<{ resolve(outcome: JobOutcome): void; reject(error: Error): void }>
}

/** A JSON copy, so memory mode behaves like Redis mode (which stores payloads and results as JSON). */
function jsonCopy(value: unknown): unknown {
  if (value === undefined) return undefined
  const text = JSON.stringify(value)
  return text === undefined ? undefined : JSON.parse(text)
}

/**
 * The in-process runner (REDIS_URL not set): jobs live in this process's memory and are lost when it exits.
 * Same semantics as the Redis driver: retries with exponential backoff, jobId dedupe, delays, concurrency
 * (per worker and per job name), graceful stop, waitFor.
 */
export class InProcessQueue implements Queue {
  readonly driver = 'memory' as const
  private readonly registry = new JobRegistry()
  private readonly limiter = new NameLimiter()
  private readonly jobs = new Map<string, MemoryJob>()
  private readonly ready: MemoryJob[] = []
  private readonly finished = { completed: [] as string[], failed: [] as string[] }
  private readonly active = new Map<string, { done: Promise<void>; controller: AbortController }>()
  /** jobId → until when enqueues of it are ignored (EnqueueOptions.uniqueForMs). */
  private readonly unique = new Map<string, number>()
  private running = false
  private closed = false
  private concurrency = DEFAULT_WORKER_CONCURRENCY

  constructor(private readonly logger: QueueLogger) {}

  register(definition: JobDefinition): void {
    this.registry.add(definition)
  }

  names(): string[] {
    return this.registry.names()
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<{ id: string }> {
    if (this.closed) throw new Error('The queue is closed')
    const { jobId, attempts, backoffMs, delayMs, uniqueForMs } = this.registry.resolve(name, opts)
    if (jobId !== undefined && (this.jobs.has(jobId) || this.uniqueUntil(jobId) > Date.now())) return { id: jobId }
    if (jobId !== undefined && uniqueForMs) this.unique.set(jobId, Date.now() + uniqueForMs)
    const job: MemoryJob = {
      id: jobId ?? randomUUID(),
      name,
      payload: jsonCopy(payload),
      attempts,
      backoffMs,
      started: 0,
      deferrals: 0,
      state: 'waiting',
      waiters: [],
    }
    this.jobs.set(job.id, job)
    if (delayMs > 0) this.delay(job, delayMs)
    else this.makeReady(job)
    return { id: job.id }
  }

  /** When `jobId`'s uniqueness ends (0: none); ended entries are dropped as they are met. */
  private uniqueUntil(jobId: string): number {
    const until = this.unique.get(jobId) ?? 0
    if (until && until <= Date.now()) this.unique.delete(jobId)
    return until
  }

  async startWorker(opts: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('The queue is closed')
    this.concurrency = positiveInt(opts.concurrency, 'concurrency') ?? this.concurrency
    this.running = true
    this.pump()
  }

  async stopWorker(): Promise<void> {
    this.running = false
    while (this.active.size > 0) {
      await Promise.allSettled([...this.active.values()].map((run) => run.done))
    }
  }

  waitFor(id: string, timeoutMs?: number): Promise<JobOutcome> {
    const job = this.jobs.get(id)
    if (!job) return Promise.reject(new Error(`Unknown job id "${id}" (never enqueued, or no longer kept)`))
    const outcome = this.outcome(job)
    if (outcome) return Promise.resolve(outcome)
    if (this.closed) return Promise.reject(new Error('The queue is closed'))
    return new Promise<JobOutcome>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const waiter = {
        resolve: (value: JobOutcome) => {
          clearTimeout(timer)
          resolve(value)
        },
        reject: (error: Error) => {
          clearTimeout(timer)
          reject(error)
        },
      }
      job.waiters.push(waiter)
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          job.waiters = job.waiters.filter((w) => w !== waiter)
          reject(new Error(`Timed out after ${timeoutMs} ms waiting for job "${id}" (${job.state})`))
        }, timeoutMs)
      }
    })
  }

  async counts(): Promise<QueueCounts> {
    const counts = { waiting: 0, delayed: 0, active: 0, workers: this.running && !this.closed ? 1 : 0 }
    for (const job of this.jobs.values()) {
      if (job.state === 'waiting' || job.state === 'delayed' || job.state === 'active') counts[job.state]++
    }
    return counts
  }

  async health(): Promise<QueueHealth> {
    const counts = await this.counts()
    const worker = this.closed ? 'closed' : this.running ? 'running' : 'stopped'
    return {
      ok: !this.closed,
      driver: this.driver,
      detail: `in-process worker ${worker}; ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed`,
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const run of this.active.values()) run.controller.abort(new Error('The queue is closing'))
    await this.stopWorker()
    for (const job of this.jobs.values()) {
      clearTimeout(job.timer)
      for (const waiter of job.waiters) waiter.reject(new Error('The queue is closed'))
      job.waiters = []
    }
    this.ready.length = 0
  }

  private delay(job: MemoryJob, ms: number): void {
    job.state = 'delayed'
    job.timer = setTimeout(() => {
      job.timer = undefined
      this.makeReady(job)
    }, ms)
  }

  private makeReady(job: MemoryJob): void {
    job.state = 'waiting'
    this.ready.push(job)
    this.pump()
  }

  /** Starts waiting jobs while there is room (a job whose name is at its limit does not hold up the others). */
  private pump(): void {
    while (this.running && this.active.size < this.concurrency) {
      const index = this.ready.findIndex((job) =>
        this.limiter.canStart(job.name, this.registry.get(job.name).concurrency)
      )
      if (index < 0) return
      const [job] = this.ready.splice(index, 1)
      this.run(job!)
    }
  }

  private run(job: MemoryJob): void {
    const definition = this.registry.get(job.name)
    const controller = new AbortController()
    job.state = 'active'
    job.started++
    this.limiter.take(job.name)
    // Deferred to a microtask so that `active` holds the run before it can finish (a handler may throw at once).
    const done = Promise.resolve().then(async () => {
      try {
        const result = await definition.handle(jsonCopy(job.payload), {
          id: job.id,
          name: job.name,
          attempt: job.started,
          signal: controller.signal,
        })
        await this.settle(job)
        this.finish(job, 'completed', jsonCopy(result) ?? undefined)
      } catch (error) {
        const message = errorMessage(error)
        if (error instanceof RunLater && job.deferrals < MAX_DEFERRALS && !this.closed) {
          job.deferrals++
          this.delay(job, deferUntil(error) - Date.now())
        } else if (job.started - job.deferrals < job.attempts && !this.closed) {
          const wait = backoffDelay(job.backoffMs, job.started - job.deferrals)
          this.logger.warn(`Job ${job.name} (${job.id}) failed on run ${job.started}/${job.attempts}: ${message}`)
          this.delay(job, wait)
        } else {
          this.logger.error(`Job ${job.name} (${job.id}) failed for good after ${job.started} runs: ${message}`)
          await this.settle(job)
          this.finish(job, 'failed', undefined, message)
        }
      } finally {
        this.limiter.release(job.name)
        this.active.delete(job.id)
        this.pump()
      }
    })
    this.active.set(job.id, { done, controller })
  }

  private settled?: (jobId: string) => Promise<void>

  onSettled(handler: (jobId: string) => Promise<void>): void {
    this.settled = handler
  }

  /** The settle handler never fails the job: the job's work is done (or given up) either way. */
  private async settle(job: MemoryJob): Promise<void> {
    await this.settled?.(job.id).catch((error: unknown) =>
      this.logger.warn(`Job ${job.name} (${job.id}) ended, but: ${errorMessage(error)}`)
    )
  }

  private finish(job: MemoryJob, state: 'completed' | 'failed', result?: unknown, error?: string): void {
    job.state = state
    job.result = result
    job.error = error
    const outcome = this.outcome(job)!
    for (const waiter of job.waiters) waiter.resolve(outcome)
    job.waiters = []
    const kept = this.finished[state]
    kept.push(job.id)
    const limit = state === 'completed' ? KEEP_COMPLETED : KEEP_FAILED
    while (kept.length > limit) this.jobs.delete(kept.shift()!)
  }

  private outcome(job: MemoryJob): JobOutcome | undefined {
    if (job.state === 'completed') return { state: 'completed', result: job.result, attempts: job.started }
    if (job.state === 'failed') return { state: 'failed', error: job.error, attempts: job.started }
    return undefined
  }
}
