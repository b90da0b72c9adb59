/**
 * The script editor's type check through Monaco's TypeScript worker, made to end: a check that throws
 * ("TypeScript not registered!" while the language is still starting, a worker that could not be
 * created, a compiler crash) is tried again after a pause, and one that hangs (a worker that never
 * loaded, or was torn down mid-request) is given up after a timeout. Giving up is an answer too:
 * `undefined`, meaning "types unknown", so the editor still hands the script on (its syntax was
 * already judged by the sandbox's parser) instead of dropping what was typed.
 */

export interface WorkerCheckOptions<T> {
  /** Tries in all when the check throws (default 3). */
  tries?: number
  /** Pause before the n-th retry: `pauseMs * n` (default 400 ms). */
  pauseMs?: number
  /** How long one try may take; a cold worker on a loaded machine takes seconds (default 20 s). */
  timeoutMs?: number
  /** False once the result is no longer wanted (a newer text, the editor closed): stop retrying. */
  wanted?: () => boolean
  /** A try that outlived its timeout and succeeded after all, while still wanted (late markers). */
  late?: (result: T) => void
}

/** `run`'s result, or `undefined` when it kept throwing, timed out, or stopped being wanted. */
export async function workerCheck<T>(
  run: () => Promise<T>,
  { tries = 3, pauseMs = 400, timeoutMs = 20_000, wanted = () => true, late }: WorkerCheckOptions<T> = {}
): Promise<T | undefined> {
  for (let n = 1; n <= tries && wanted(); n++) {
    const attempt = run()
    const outcome = await within(attempt, timeoutMs)
    if (outcome.kind === 'done') return outcome.value
    if (outcome.kind === 'timeout') {
      // The same worker would hang again: answer now, and pass on what it says if it ever does.
      if (late) attempt.then((value) => wanted() && late(value)).catch(() => undefined)
      return undefined
    }
    if (n < tries) await pause(pauseMs * n)
  }
  return undefined
}

type Outcome<T> = { kind: 'done'; value: T } | { kind: 'threw' } | { kind: 'timeout' }

function within<T>(promise: Promise<T>, ms: number): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout' }), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve({ kind: 'done', value })
      },
      () => {
        clearTimeout(timer)
        resolve({ kind: 'threw' })
      }
    )
  })
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
