/**
 * Thrown by a handler whose run cannot go on yet because another live run holds what it needs (a job's
 * effect claimed by a run on another worker, job_effects.ts): both drivers put the job off until `at`
 * without spending one of its attempts, so a job with few attempts left is not given up for waiting
 * its turn. A job is put off at most MAX_DEFERRALS times; past that, the error counts as a failure.
 */
export class RunLater extends Error {
  constructor(
    readonly at: number,
    message: string
  ) {
    super(message)
  }
}

export const MAX_DEFERRALS = 20

/** Not before a tenth of a second from now: a time already past would spin. */
export function deferUntil(error: RunLater): number {
  return Math.max(error.at, Date.now() + 100)
}
