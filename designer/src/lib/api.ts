/**
 * The designer's calls to the core (/inside/designer/*), on the spec's conventions as runtime-web's
 * call() applies them (runtime-web/src/lib/api.ts): the session's `token` and `user` headers, the
 * page's language, and an answer `{status: 'done', data}` or `{status: 'fail', message}`. Bodies are
 * JSON (a jsonconfig is a document, not a form field). Same origin, same sessionStorage session.
 */

/** runtime-web's sessionStorage keys of the signed-in session (SESSION_KEYS there). */
export const SESSION_KEYS = { token: 'tramita.token', user: 'tramita.user', logged: 'tramita.logged' } as const

export const UNAUTHORIZED = 'Unauthorized'

export interface Session {
  token: string | null
  user: string | null
}

export function readSession(): Session {
  try {
    const store = globalThis.sessionStorage
    return { token: store.getItem(SESSION_KEYS.token), user: store.getItem(SESSION_KEYS.user) }
  } catch {
    return { token: null, user: null }
  }
}

/** A refused call: the server's message, and the problems at their paths when it sent them (publish). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problems: { path: string; message: string }[] = []
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The session is gone (expired, revoked): sign in again. */
  get unauthorized(): boolean {
    return this.message === UNAUTHORIZED || this.status === 401
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Builds the fetch arguments of one call (pure, for the tests). */
export function buildRequest(method: Method, body: unknown, session: Session, language?: string) {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (session.token) headers.token = session.token
  if (session.user) headers.user = session.user
  if (language) headers['accept-language'] = language
  if (body !== undefined) headers['content-type'] = 'application/json'
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
}

/** Reads an answer: the data of a 'done' body, else an ApiError with the server's message or 'Error'. */
export function readAnswer<T>(status: number, body: unknown): T {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  if (answer.status === 'done') return answer.data as T
  const message = typeof answer.message === 'string' && answer.message.trim() !== '' ? answer.message : 'Error'
  const problems = Array.isArray(answer.problems) ? (answer.problems as ApiError['problems']) : []
  throw new ApiError(message, status, problems)
}

export async function call<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const language = globalThis.document?.documentElement.lang || undefined
  const init = buildRequest(method, body, readSession(), language)
  const response = await fetch(path, { ...init, signal, credentials: 'same-origin' })
  return readAnswer<T>(response.status, await response.json().catch(() => null))
}
