/**
 * The spec's call convention (000 §7, §8): every call carries form-data with a `case` field naming the
 * method (for GET the fields travel in the query string), the flags `first_load` and `search_load`,
 * and the headers `token` and `user` when a session exists. A body whose status is not 'done' is a
 * failure carrying the server's message (or 'Error'); 'Unauthorized' ends the session and reloads.
 */
export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export type FieldValue = string | number | boolean | Blob | null | undefined | object
export type Fields = Record<string, FieldValue>

export interface CallFlags {
  firstLoad?: boolean
  searchLoad?: boolean
}

export interface CallOptions extends CallFlags {
  signal?: AbortSignal
}

export interface Session {
  token?: string | null
  user?: string | null
}

/** sessionStorage keys of the signed-in session (the runtime's and the designer's: same origin, one session). */
export const SESSION_KEYS = { token: 'tramita.token', user: 'tramita.user', logged: 'tramita.logged' } as const

/**
 * The administrator's own token, kept while they act as someone else (impersonation). Here rather than
 * in auth.ts so the session bar does not pull the sign-in code (prehash, RSA, captcha) into every page.
 */
export const ORIGINAL_TOKEN_KEY = 'tramita.token.original'
export const ORIGINAL_USER_KEY = 'tramita.user.original'

export const UNAUTHORIZED = 'Unauthorized'
export const GENERIC_ERROR = 'Error'

export interface BuiltRequest {
  url: string
  init: { method: CallMethod; headers: Record<string, string>; body?: FormData }
}

export interface CallBody<T = unknown> {
  status: string
  data?: T
  message?: string
  [key: string]: unknown
}

export class CallError extends Error {
  constructor(
    message: string,
    readonly body?: unknown
  ) {
    super(message)
    this.name = 'CallError'
  }
}

/** The text form of a field value; Blobs are left to FormData, null and undefined become ''. */
export function fieldText(value: Exclude<FieldValue, Blob>): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** The headers every call carries: JSON answers, the session's `token` and `user`, the page's language. */
export function sessionHeaders(session: Session, language?: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (session.token) headers.token = session.token
  if (session.user) headers.user = session.user
  if (language) headers['accept-language'] = language
  return headers
}

/** Builds the fetch arguments of one call (pure apart from FormData). */
export function buildRequest(
  method: CallMethod,
  path: string,
  fields: Fields = {},
  session: Session = {},
  flags: CallFlags = {},
  language?: string
): BuiltRequest {
  const headers = sessionHeaders(session, language)
  const flagEntries: [string, string][] = [
    ['first_load', String(flags.firstLoad ?? false)],
    ['search_load', String(flags.searchLoad ?? false)],
  ]

  if (method === 'GET') {
    const query = new URLSearchParams()
    query.set('case', 'GET')
    for (const [name, value] of Object.entries(fields)) {
      if (name === 'case' || value instanceof Blob) continue
      query.append(name, fieldText(value))
    }
    for (const [name, value] of flagEntries) query.set(name, value)
    const separator = path.includes('?') ? '&' : '?'
    return { url: `${path}${separator}${query.toString()}`, init: { method, headers } }
  }

  const body = new FormData()
  body.set('case', method)
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'case') continue
    if (value instanceof Blob) {
      body.append(name, value, value instanceof File ? value.name : name)
    } else {
      body.append(name, fieldText(value))
    }
  }
  for (const [name, value] of flagEntries) body.set(name, value)
  return { url: path, init: { method, headers, body } }
}

export type Outcome<T> = { ok: true; body: CallBody<T> } | { ok: false; message: string; unauthorized: boolean }

/** Reads a response body: status 'done' succeeds; anything else fails with the server's message or 'Error'. */
export function interpretBody<T = unknown>(body: unknown): Outcome<T> {
  if (body !== null && typeof body === 'object' && (body as CallBody).status === 'done') {
    return { ok: true, body: body as CallBody<T> }
  }
  const raw = body !== null && typeof body === 'object' ? (body as CallBody).message : undefined
  const message = typeof raw === 'string' && raw.trim() !== '' ? raw : GENERIC_ERROR
  return { ok: false, message, unauthorized: message === UNAUTHORIZED }
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

export function readSession(): Session {
  const store = storage()
  return { token: store?.getItem(SESSION_KEYS.token) ?? null, user: store?.getItem(SESSION_KEYS.user) ?? null }
}

export function clearSession(): void {
  const store = storage()
  for (const key of Object.values(SESSION_KEYS)) store?.removeItem(key)
}

/** Performs one call and resolves the JSON body of a 'done' answer; rejects with a CallError otherwise. */
export async function call<T = unknown>(
  method: CallMethod,
  path: string,
  fields: Fields = {},
  options: CallOptions = {}
): Promise<CallBody<T>> {
  const language = globalThis.document?.documentElement.lang || undefined
  const session = readSession()
  const { url, init } = buildRequest(method, path, fields, session, options, language)
  const response = await fetch(url, { ...init, signal: options.signal, credentials: 'same-origin' })
  const body: unknown = await response.json().catch(() => null)
  const outcome = interpretBody<T>(body)
  if (outcome.ok) return outcome.body
  // Only a session that existed is destroyed and reloaded: without one a reload would ask again, forever.
  if (outcome.unauthorized && session.token) {
    clearSession()
    globalThis.location?.reload()
  }
  throw new CallError(outcome.message, body)
}
