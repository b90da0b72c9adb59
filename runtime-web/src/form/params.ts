/**
 * The form screen's query parameters (spec 000 §2): data, key_process, token, values (base64 JSON of
 * preset values) and invisible. Any other parameter is kept as a process variable.
 */
export interface FormParams {
  data: string
  keyProcess: string
  token: string
  /** Preset values by field name, from `values`; an unreadable `values` gives none (and a warning). */
  presets: Record<string, unknown>
  presetsInvalid: boolean
  invisible: boolean
  /** Every other parameter, as a process variable. */
  vars: Record<string, string>
}

const OWN = new Set(['data', 'key_process', 'token', 'values', 'invisible'])

/** Decodes base64 (standard or URL-safe, padding optional) holding UTF-8 JSON. */
export function decodeBase64Json(text: string): unknown {
  const normal = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '')
  const padded = normal + '='.repeat((4 - (normal.length % 4)) % 4)
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
  return JSON.parse(new TextDecoder().decode(bytes))
}

/** The reverse, for links that preset values. */
export function encodeBase64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** `invisible` is on when present, unless it says false or 0. */
function flag(value: string | null): boolean {
  if (value === null) return false
  return !/^(false|0|no)$/i.test(value.trim())
}

export function readFormParams(search: string | URLSearchParams): FormParams {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search
  let presets: Record<string, unknown> = {}
  let presetsInvalid = false
  const raw = query.get('values')
  if (raw) {
    try {
      const decoded = decodeBase64Json(raw)
      if (decoded && typeof decoded === 'object' && !Array.isArray(decoded))
        presets = decoded as Record<string, unknown>
      else presetsInvalid = true
    } catch {
      presetsInvalid = true
    }
  }
  const vars: Record<string, string> = {}
  for (const [name, value] of query) if (!OWN.has(name)) vars[name] = value
  return {
    data: query.get('data') ?? '',
    keyProcess: query.get('key_process') ?? '',
    token: query.get('token') ?? '',
    presets,
    presetsInvalid,
    invisible: flag(query.get('invisible')),
    vars,
  }
}

/**
 * Local edits of "edit values" live in localStorage under `vfields_edit`, one entry per case keyed by
 * the first 10 characters of data or key_process (spec 000 §5); cleared after a successful save.
 */
export const LOCAL_EDITS_KEY = 'vfields_edit'

export function localEditsKey(params: Pick<FormParams, 'data' | 'keyProcess'>): string {
  return (params.keyProcess || params.data).slice(0, 10)
}

function readAll(storage: Storage): Record<string, Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(LOCAL_EDITS_KEY) ?? '{}')
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Record<string, unknown>>) : {}
  } catch {
    return {}
  }
}

export function readLocalEdits(storage: Storage, key: string): Record<string, unknown> | null {
  return readAll(storage)[key] ?? null
}

export function writeLocalEdits(storage: Storage, key: string, values: Record<string, unknown>): void {
  storage.setItem(LOCAL_EDITS_KEY, JSON.stringify({ ...readAll(storage), [key]: values }))
}

export function clearLocalEdits(storage: Storage, key: string): void {
  const all = readAll(storage)
  delete all[key]
  if (Object.keys(all).length === 0) storage.removeItem(LOCAL_EDITS_KEY)
  else storage.setItem(LOCAL_EDITS_KEY, JSON.stringify(all))
}
