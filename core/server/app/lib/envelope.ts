import { Exception } from '@adonisjs/core/exceptions'

/** The spec's answer shape (000 §7): success is `status: 'done'`, anything else is a failure. */
export type Done<T> = { status: 'done'; data: T }
export type Fail = { status: 'fail'; message: string }
export type Envelope<T> = Done<T> | Fail

export function done<T>(data: T): Done<T> {
  return { status: 'done', data }
}

/**
 * A refusal with a reason for the caller. Thrown from any route; the exception handler turns it
 * into `{status:'fail', message}` with `status` as the HTTP code (4xx by default).
 */
export class CallFailure extends Exception {
  /** Extra fields for the failure body (e.g. `captcha_required` on a refused sign-in). */
  extra?: Record<string, unknown>
  /** Seconds before a refused (429) caller may try again; sent as Retry-After. */
  retryAfter?: number

  constructor(message: string, status = 400, code = 'E_CALL_FAILED', extra?: Record<string, unknown>) {
    super(message, { status, code })
    this.extra = extra
  }
}

export function fail(message: string, status = 400, extra?: Record<string, unknown>): never {
  throw new CallFailure(message, status, 'E_CALL_FAILED', extra)
}
