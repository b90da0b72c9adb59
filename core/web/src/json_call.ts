/**
 * Calls whose body is a JSON document rather than form fields (the designer's /inside/designer/*: a
 * jsonconfig is a document, not a form field), on the same conventions as call() in api.ts: the
 * session's `token` and `user` headers, the page's language, and an answer `{status: 'done', data}`
 * or `{status: 'fail', message}`. Apart from api.ts so the runtime's routes never carry it.
 */
import {
  CallError,
  UNAUTHORIZED,
  interpretBody,
  readSession,
  sessionHeaders,
  type CallMethod,
  type Session,
} from './api.js'

export interface Problem {
  path: string
  message: string
}

/** A refused JSON call: the server's message, the HTTP status, and the problems at their paths when it sent them. */
export class JsonCallError extends CallError {
  constructor(
    message: string,
    readonly status: number,
    readonly problems: Problem[] = [],
    body?: unknown
  ) {
    super(message, body)
    this.name = 'JsonCallError'
  }

  /** The session is gone (expired, revoked): sign in again. */
  get unauthorized(): boolean {
    return this.message === UNAUTHORIZED || this.status === 401
  }
}

/** The fetch arguments of one JSON call (pure, for the tests). */
export function buildJsonRequest(method: CallMethod, body: unknown, session: Session, language?: string) {
  const headers = sessionHeaders(session, language)
  if (body !== undefined) headers['content-type'] = 'application/json'
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
}

/** Reads an answer: the data of a 'done' body, else a JsonCallError with the server's message or 'Error'. */
export function readJsonAnswer<T>(status: number, body: unknown): T {
  const outcome = interpretBody<T>(body)
  if (outcome.ok) return outcome.body.data as T
  const problems = (body as { problems?: unknown } | null)?.problems
  throw new JsonCallError(outcome.message, status, Array.isArray(problems) ? (problems as Problem[]) : [], body)
}

export async function callJson<T>(method: CallMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const language = globalThis.document?.documentElement.lang || undefined
  const init = buildJsonRequest(method, body, readSession(), language)
  const response = await fetch(path, { ...init, signal, credentials: 'same-origin' })
  return readJsonAnswer<T>(response.status, await response.json().catch(() => null))
}
