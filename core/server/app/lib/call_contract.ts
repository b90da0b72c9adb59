/**
 * The spec's call contract (000 §7), in one place: every /data/* and /inside/* call names its method
 * in a `case` field (form-data, url-encoded or JSON body; query string for GET), carries the headers
 * `token` and `user`, and may add the flags `first_load` and `search_load`.
 *
 * The spec's dispatcher may tunnel every call through POST, so a POST whose `case` names another
 * method is routed as that method. A non-POST request whose `case` disagrees with it is refused:
 * it is either a broken client or an attempt to confuse a proxy's method rules.
 */
export const CALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const
export type CallMethod = (typeof CALL_METHODS)[number]

// `/confirmretention/…` (its card, spec 001 §7); `/confirmretention` itself is also the web app's screen.
export const CONTRACT_PREFIXES = ['/data/', '/inside/', '/getPublicFile/', '/confirmretention/'] as const

export interface CallInfo {
  /** The method the route is matched with. */
  method: CallMethod
  /** The `case` as sent (upper-cased), or null when the client sent none. */
  case: CallMethod | null
  token: string | null
  user: string | null
  firstLoad: boolean
  searchLoad: boolean
}

export function isContractPath(path: string): boolean {
  return CONTRACT_PREFIXES.some((prefix) => path.startsWith(prefix))
}

export type CaseResolution =
  | { ok: true; method: CallMethod; case: CallMethod | null }
  | { ok: false; reason: 'invalid_case' | 'case_mismatch'; value: string }

/** Decides the effective method from the HTTP method and the `case` field. */
export function resolveCase(httpMethod: string, rawCase: unknown): CaseResolution {
  const http = httpMethod.toUpperCase()
  if (rawCase === undefined || rawCase === null || rawCase === '') {
    const method = (CALL_METHODS as readonly string[]).includes(http) ? (http as CallMethod) : 'GET'
    return { ok: true, method, case: null }
  }
  // Anything but one string (two `case` fields arrive as a list) is refused.
  const value = typeof rawCase === 'string' ? rawCase.trim().toUpperCase() : ''
  if (!(CALL_METHODS as readonly string[]).includes(value)) {
    return { ok: false, reason: 'invalid_case', value: String(rawCase).slice(0, 40) }
  }
  const method = value as CallMethod
  if (http === 'POST' || http === method || (http === 'HEAD' && method === 'GET')) {
    return { ok: true, method, case: method }
  }
  return { ok: false, reason: 'case_mismatch', value }
}

/** `true`, `1`, `yes` and `on` are true; anything else (absent included) is false. */
export function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value === 1
  if (typeof value !== 'string') return false
  return ['true', '1', 'yes', 'on'].includes(value.trim().toLowerCase())
}

/** A header value, or null when absent or blank. */
export function headerValue(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value
  return first && first.trim() !== '' ? first.trim() : null
}
