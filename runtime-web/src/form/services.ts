/**
 * The services the form screen gives renderers, over the spec's calls (000 §7): uploads carry the
 * form's context (data, key_process, token) so the server can check the field and the caller.
 * A failed POST clears the uploads still pending (000 §8): those in flight are aborted with
 * UploadsCleared, and a field's queued files are not sent (useUploader).
 */
import { buildRequest, call, CallError, interpretBody, readSession } from '@tramita/web/api'
import type { FolderType, PeopleOption, RuntimeServices, UploadedFile } from './types.js'

export interface FormCallContext {
  data: string
  keyProcess: string
  token: string
}

interface UserRow {
  id: number
  first_name: string
  last_name: string
  photo?: string | null
  areas?: number[]
  rol_user?: number[]
}

async function loadPeople(kind: 'users' | 'areas' | 'roles' | 'machines'): Promise<PeopleOption[]> {
  if (kind === 'users') {
    const body = await call<{ users: UserRow[] }>('GET', '/data/allusers')
    return (body.data?.users ?? []).map((u) => ({
      code: u.id,
      label: `${u.first_name} ${u.last_name}`.trim(),
      photo: u.photo ?? '',
      allData: { areas: u.areas ?? [], rol_user: u.rol_user ?? [] },
    }))
  }
  if (kind === 'areas' || kind === 'roles') {
    const body = await call<unknown>('GET', kind === 'areas' ? '/data/areas' : '/data/users/roles')
    const data = body.data
    const rows: Record<string, unknown>[] = Array.isArray(data)
      ? (data as Record<string, unknown>[])
      : Object.values((data ?? {}) as Record<string, Record<string, unknown>>)
    return rows.map((row) => ({
      code: row.id as number,
      label: String(row.name ?? ''),
      ...(row.color ? { color: String(row.color) } : {}),
    }))
  }
  return loadMachines()
}

/** The devices plugin's machines call (spec 000 §7); runtime-web reaches the plugin through it alone. */
export const ALL_MACHINES_PATH = '/inside/forms/create/search_endpoint/all_machines'

/** A machine as all_machines answers it (the devices plugin's shared/devices.ts MachineOption). */
interface MachineRow {
  token?: unknown
  name?: string
  ubication?: string
  model?: string
  ip?: string
  trays?: { name?: string }[]
}

/**
 * A machines picker's options (spec 000 §3 "Machine: token, ubication, model, ip, trays[name]"): code
 * the token, label the name, and the machine's own keys, which the picked value keeps
 * (renderers/fields/logic.ts peopleValueOf). Rows without a token are left out.
 */
export function machineOptions(machines: unknown): PeopleOption[] {
  return (Array.isArray(machines) ? (machines as (MachineRow | null)[]) : [])
    .filter((m): m is MachineRow & { token: string } => typeof m?.token === 'string' && m.token !== '')
    .map(({ token, name, ubication, model, ip, trays }) => ({
      code: token,
      label: name || model || token,
      token,
      ubication: ubication ?? '',
      model: model ?? '',
      ip: ip ?? '',
      trays: Array.isArray(trays) ? trays.map((tray) => ({ name: String(tray?.name ?? '') })) : [],
    }))
}

/**
 * The machines the signed-in person may use, from the devices plugin; when it is not enabled its route
 * is missing (404) and the picker quietly offers none.
 */
export async function loadMachines(request: typeof fetch = (url, init) => fetch(url, init)): Promise<PeopleOption[]> {
  const { url, init } = buildRequest(
    'POST',
    ALL_MACHINES_PATH,
    {},
    readSession(),
    {},
    globalThis.document?.documentElement.lang || undefined
  )
  const response = await request(url, { ...init, credentials: 'same-origin' })
  if (response.status === 404) return []
  const body: unknown = await response.json().catch(() => null)
  const outcome = interpretBody<{ machines?: unknown }>(body)
  if (!outcome.ok) throw new CallError(outcome.message, body)
  return machineOptions(outcome.body.data?.machines)
}

/** Why an upload stopped: another POST of the form failed (spec 000 §8). */
export class UploadsCleared extends Error {
  constructor() {
    super('uploads cleared')
    this.name = 'UploadsCleared'
  }
}

/**
 * `release` lets go of the object URLs of fetched files (one per path); `clearPendingUploads` is
 * for the form's other POSTs (its save) when they fail.
 */
export type FormServices = RuntimeServices & { release(): void; clearPendingUploads(): void }

export function createFormServices(
  context: FormCallContext,
  /** The page's language now (read on each use: switching language keeps the form and its files). */
  language: () => string,
  preview: (file: { path: string; real_name: string }) => void
): FormServices {
  const people = new Map<string, Promise<PeopleOption[]>>()
  const sources = new Map<string, Promise<string>>()
  const formFields = { data: context.data, key_process: context.keyProcess, token: context.token }
  const inFlight = new Set<AbortController>()
  const clearPendingUploads = () => {
    for (const controller of inFlight) controller.abort(new UploadsCleared())
    inFlight.clear()
  }
  /** A POST of the form; its failure clears the uploads pending (not when it was itself cleared). */
  const post = async <T>(path: string, fields: Record<string, string | Blob>, signal?: AbortSignal) => {
    try {
      return await call<T>('POST', path, fields, { signal })
    } catch (error) {
      if (!(error instanceof UploadsCleared)) clearPendingUploads()
      throw error
    }
  }
  const fileUrl = (path: string): string => {
    if (/^https?:\/\//i.test(path)) return path
    // External assignees have no session: their task token lets them read the case's files.
    const session = readSession()
    if (session.token || !context.token) return path
    const separator = path.includes('?') ? '&' : '?'
    return `${path}${separator}key_process=${encodeURIComponent(context.keyProcess)}&token=${encodeURIComponent(context.token)}`
  }

  return {
    get lang() {
      return language()
    },
    formKey: context.data,
    async upload(files: File[], foldertype: FolderType, field: string): Promise<UploadedFile[]> {
      const out: UploadedFile[] = []
      for (const file of files) {
        const controller = new AbortController()
        inFlight.add(controller)
        try {
          const fields = { ...formFields, foldertype, field, new_version: 'false', file }
          const body = await post<UploadedFile[]>('/data/form/upload/files', fields, controller.signal)
          out.push(...(body.data ?? []))
        } finally {
          inFlight.delete(controller)
        }
      }
      return out
    },
    async unlink(path: string) {
      await post('/data/form/upload/files/unlink', { ...formFields, path, new_version: 'false' })
    },
    fileUrl,
    fileSrc(path: string) {
      const session = readSession()
      // Addresses elsewhere, and readers without a session (the task token rides in the query), load directly.
      if (/^(https?:|blob:|data:image\/)/i.test(path) || !session.token || !path.startsWith('/data/files/')) {
        return Promise.resolve(fileUrl(path))
      }
      let source = sources.get(path)
      if (!source) {
        source = fetch(path, { headers: { token: session.token, ...(session.user ? { user: session.user } : {}) } })
          .then((response) => {
            if (!response.ok) throw new Error(`${response.status}`)
            return response.blob()
          })
          .then((blob) => URL.createObjectURL(blob))
        // A failed fetch is not kept: the next render may try again.
        source.catch(() => sources.delete(path))
        sources.set(path, source)
      }
      return source
    },
    clearPendingUploads,
    release() {
      for (const source of sources.values()) void source.then(URL.revokeObjectURL, () => undefined)
      sources.clear()
    },
    peopleOptions(kind) {
      let list = people.get(kind)
      if (!list) people.set(kind, (list = loadPeople(kind)))
      return list
    },
    preview,
    async endpoint<T>(name: string, fields: Record<string, string | Blob>): Promise<T> {
      const body = await post<T>(`/inside/forms/create/search_endpoint/${name}`, { ...formFields, ...fields })
      return body.data as T
    },
  }
}
