import { randomUUID } from 'node:crypto'
import { EventEmitter, once } from 'node:events'
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  JobRegistry,
  backoffDelay,
  type EnqueueOptions,
  type JobDefinition,
  type JobOutcome,
  type Queue,
  type QueueLogger,
} from './types.js'

interface Job {
  id: string
  name: string
  payload: unknown
  attempts: number
  backoffMs: number
  made: number
  state: 'waiting' | 'active' | 'completed' | 'failed'
  runAt: number
  result?: unknown
  error?: string
}

/** How many finished jobs are kept (for waitFor and jobId de-duplication). */
const KEEP_FINISHED = 1000

/** The embedded runner: same semantics as the Redis driver, inside this process. */
export class MemoryQueue implements Queue {
  readonly driver = 'memory' as const
  private readonly registry = new JobRegistry()
  private readonly jobs = new Map<string, Job>()
  private readonly finished: string[] = []
  private readonly events = new EventEmitter()
  private readonly running = new Set<Promise<void>>()
  private concurrency = 1
  private working = false
  private timer?: NodeJS.Timeout
  private abort = new AbortController()

  constructor(private readonly logger?: QueueLogger) {
    this.events.setMaxListeners(0)
  }

  register(definition: JobDefinition): void {
    this.registry.add(definition)
  }

  names(): string[] {
    return this.registry.names()
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<{ id: string }> {
    const definition = this.registry.get(name)
    const id = opts.jobId ?? randomUUID()
    if (this.jobs.has(id)) return { id }
    this.jobs.set(id, {
      id,
      name,
      // A copy, as Redis would store it: the caller may not mutate a queued payload.
      payload: payload === undefined ? undefined : structuredClone(payload),
      attempts: opts.attempts ?? definition.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: opts.backoffMs ?? definition.backoffMs ?? DEFAULT_BACKOFF_MS,
      made: 0,
      state: 'waiting',
      runAt: Date.now() + (opts.delayMs ?? 0),
    })
    this.schedule()
    return { id }
  }

  async startWorker(opts: { concurrency?: number } = {}): Promise<void> {
    this.concurrency = Math.max(1, opts.concurrency ?? 5)
    this.abort = new AbortController()
    this.working = true
    this.schedule()
  }

  async stopWorker(): Promise<void> {
    this.working = false
    clearTimeout(this.timer)
    await Promise.allSettled([...this.running])
  }

  /** Starts every due job up to the concurrency, and sets a timer for the next delayed one. */
  private schedule(): void {
    if (!this.working) return
    clearTimeout(this.timer)
    const now = Date.now()
    let next = Infinity
    for (const job of this.jobs.values()) {
      if (job.state !== 'waiting') continue
      if (job.runAt > now) {
        next = Math.min(next, job.runAt)
        continue
      }
      if (this.running.size >= this.concurrency) break
      const run = this.run(job).finally(() => {
        this.running.delete(run)
        this.schedule()
      })
      this.running.add(run)
    }
    if (next !== Infinity) this.timer = setTimeout(() => this.schedule(), next - now).unref()
  }

  private async run(job: Job): Promise<void> {
    job.state = 'active'
    job.made += 1
    const definition = this.registry.get(job.name)
    try {
      job.result = await definition.handle(job.payload, {
        id: job.id,
        name: job.name,
        attempt: job.made,
        signal: this.abort.signal,
      })
      this.finish(job, 'completed')
    } catch (error) {
      job.error = error instanceof Error ? error.message : String(error)
      if (job.made < job.attempts) {
        job.state = 'waiting'
        job.runAt = Date.now() + backoffDelay(job.backoffMs, job.made)
        this.logger?.warn(`job ${job.name} (${job.id}) failed on attempt ${job.made}: ${job.error}; retrying`)
      } else {
        this.logger?.error(`job ${job.name} (${job.id}) failed after ${job.made} attempts: ${job.error}`)
        this.finish(job, 'failed')
      }
    }
  }

  private finish(job: Job, state: 'completed' | 'failed') {
    job.state = state
    this.finished.push(job.id)
    while (this.finished.length > KEEP_FINISHED) this.jobs.delete(this.finished.shift()!)
    this.events.emit(job.id)
  }

  async waitFor(id: string, timeoutMs = 30_000): Promise<JobOutcome> {
    const job = this.jobs.get(id)
    if (!job) throw new Error(`No job with id "${id}"`)
    if (job.state !== 'completed' && job.state !== 'failed') {
      await once(this.events, id, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => {
        throw new Error(`Job "${id}" did not finish within ${timeoutMs} ms`)
      })
    }
    return job.state === 'completed'
      ? { state: 'completed', result: job.result, attempts: job.made }
      : { state: 'failed', error: job.error, attempts: job.made }
  }

  async health() {
    return { ok: true, driver: this.driver }
  }

  async close(): Promise<void> {
    this.abort.abort()
    await this.stopWorker()
  }
}
