/**
 * One job API, two drivers: BullMQ on Redis when REDIS_URL is set (workers run by `tramita worker`),
 * and an in-process runner otherwise (the app process is its own worker).
 *
 * Handlers must be idempotent: a job may run more than once (a retry after a failure, or a second run
 * after its worker died mid-job). Write them so a repeat finds the work done and does nothing.
 */
export interface JobContext {
  id: string
  name: string
  /** 1-based attempt number. */
  attempt: number
  /** Aborted when the worker is asked to stop; long handlers should check it. */
  signal: AbortSignal
}

export interface JobDefinition<P = any, R = unknown> {
  /** Unique; plugins' jobs are prefixed with the plugin id (`documents:ocr`). */
  name: string
  handle(payload: P, ctx: JobContext): Promise<R>
  /** Tries in all (default 3). */
  attempts?: number
  /** Base delay of the exponential backoff: base × 2^(attempt-1) ms (default 1000). */
  backoffMs?: number
}

export interface EnqueueOptions {
  /** Idempotency key: enqueuing the same id again while the job is kept does not add a second job. */
  jobId?: string
  delayMs?: number
  attempts?: number
  backoffMs?: number
}

export interface JobOutcome {
  state: 'completed' | 'failed'
  result?: unknown
  error?: string
  attempts: number
}

export interface QueueLogger {
  info(...args: any[]): void
  warn(...args: any[]): void
  error(...args: any[]): void
}

export interface Queue {
  readonly driver: 'redis' | 'memory'
  /** Adds a job type. A duplicate name throws. */
  register(definition: JobDefinition): void
  names(): string[]
  /** Queues a job of a registered type; an unknown name throws with the known ones. */
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<{ id: string }>
  startWorker(opts?: { concurrency?: number }): Promise<void>
  /** Graceful: takes no new jobs and waits for the running ones. */
  stopWorker(): Promise<void>
  /** Resolves when the job completes or fails for good; rejects after timeoutMs. */
  waitFor(id: string, timeoutMs?: number): Promise<JobOutcome>
  health(): Promise<{ ok: boolean; driver: 'redis' | 'memory'; detail?: string }>
  close(): Promise<void>
}

export const DEFAULT_ATTEMPTS = 3
export const DEFAULT_BACKOFF_MS = 1000

/** Delay before retry number `attempt + 1`, after `attempt` failed tries. */
export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** (attempt - 1)
}

export class JobRegistry {
  private readonly definitions = new Map<string, JobDefinition>()

  add(definition: JobDefinition): void {
    if (!definition.name || typeof definition.handle !== 'function') {
      throw new Error('A job needs a name and a handle() function')
    }
    if (this.definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is already registered`)
    this.definitions.set(definition.name, definition)
  }

  get(name: string): JobDefinition {
    const definition = this.definitions.get(name)
    if (!definition) {
      throw new Error(`Unknown job "${name}"; registered jobs: ${this.names().join(', ') || 'none'}`)
    }
    return definition
  }

  names(): string[] {
    return [...this.definitions.keys()]
  }
}
