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
  constructor(message: string, status = 400, code = 'E_CALL_FAILED') {
    super(message, { status, code })
  }
}

export function fail(message: string, status = 400): never {
  throw new CallFailure(message, status)
}
