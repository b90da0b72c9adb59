export const DEFAULT_ATTEMPTS = 3
export const DEFAULT_BACKOFF_MS = 1000
/** Jobs run at once by one worker process unless startWorker() is given a concurrency. */
export const DEFAULT_WORKER_CONCURRENCY = 5
/** Finished jobs kept (for waitFor and jobId dedupe), the same for both drivers. */
export const KEEP_COMPLETED = 1000
export const KEEP_FAILED = 5000

/** Delay before the next run after failed run number `attempt` (1-based): base * 2^(attempt-1). */
export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** (attempt - 1)
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))
}

export function positiveInt(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a positive integer (got ${value})`)
  return value
}

export function nonNegative(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value < 0) throw new Error(`${what} must be a number >= 0 (got ${value})`)
  return value
}
