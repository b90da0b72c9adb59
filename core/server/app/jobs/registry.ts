import { nonNegative, positiveInt } from './backoff.js'
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS } from './backoff.js'
import type { EnqueueOptions, JobDefinition } from './types.js'

export class UnknownJobError extends Error {
  constructor(
    readonly jobName: string,
    known: string[]
  ) {
    super(`Unknown job "${jobName}": register it first (registered jobs: ${known.join(', ') || 'none'})`)
    this.name = 'UnknownJobError'
  }
}

/** The job types a queue knows, by name. */
export class JobRegistry {
  private readonly definitions = new Map<string, JobDefinition>()

  add(definition: JobDefinition): void {
    if (!definition || typeof definition.name !== 'string' || definition.name.trim() === '') {
      throw new Error('A job definition needs a non-empty name')
    }
    if (typeof definition.handle !== 'function') throw new Error(`Job "${definition.name}" needs a handle() function`)
    if (this.definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is already registered`)
    positiveInt(definition.attempts, `attempts of job "${definition.name}"`)
    nonNegative(definition.backoffMs, `backoffMs of job "${definition.name}"`)
    positiveInt(definition.concurrency, `concurrency of job "${definition.name}"`)
    this.definitions.set(definition.name, definition)
  }

  /** The definition, or an UnknownJobError. */
  get(name: string): JobDefinition {
    const definition = this.definitions.get(name)
    if (!definition) throw new UnknownJobError(name, this.names())
    return definition
  }

  names(): string[] {
    return [...this.definitions.keys()]
  }

  /** The checked options of one enqueue: the call's, else the job type's, else the defaults. */
  resolve(name: string, opts: EnqueueOptions) {
    const definition = this.get(name)
    if (opts.jobId !== undefined && (typeof opts.jobId !== 'string' || opts.jobId === '')) {
      throw new Error('jobId must be a non-empty string')
    }
    return {
      definition,
      jobId: opts.jobId,
      attempts: positiveInt(opts.attempts, 'attempts') ?? definition.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: nonNegative(opts.backoffMs, 'backoffMs') ?? definition.backoffMs ?? DEFAULT_BACKOFF_MS,
      delayMs: nonNegative(opts.delayMs, 'delayMs') ?? 0,
      uniqueForMs: opts.jobId === undefined ? undefined : nonNegative(opts.uniqueForMs, 'uniqueForMs'),
    }
  }
}

/** Counts running jobs per name, for JobDefinition.concurrency. */
export class NameLimiter {
  private readonly running = new Map<string, number>()
  private readonly waiting = new Map<string, Array<() => void>>()

  canStart(name: string, limit: number | undefined): boolean {
    return limit === undefined || (this.running.get(name) ?? 0) < limit
  }

  /** Takes a slot now if free, else waits for one. */
  async acquire(name: string, limit: number | undefined): Promise<void> {
    while (!this.canStart(name, limit)) {
      await new Promise<void>((resolve) => {
        const list = this.waiting.get(name) ?? []
        list.push(resolve)
        this.waiting.set(name, list)
      })
    }
    this.running.set(name, (this.running.get(name) ?? 0) + 1)
  }

  /** Synchronous take, for callers that checked canStart(). */
  take(name: string): void {
    this.running.set(name, (this.running.get(name) ?? 0) + 1)
  }

  release(name: string): void {
    this.running.set(name, Math.max(0, (this.running.get(name) ?? 0) - 1))
    this.waiting.get(name)?.shift()?.()
  }
}
