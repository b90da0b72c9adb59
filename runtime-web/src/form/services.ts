/**
 * The services the form screen gives renderers, over the spec's calls (000 §7): uploads carry the
 * form's context (data, key_process, token) so the server can check the field and the caller.
 */
import { call, readSession } from '../lib/api.js'
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
  // Machines come with the devices plugin.
  return []
}

/** Object URLs of fetched files, one per path, released with the form (see `release`). */
export type FormServices = RuntimeServices & { release(): void }

export function createFormServices(
  context: FormCallContext,
  /** The page's language now (read on each use: switching language keeps the form and its files). */
  language: () => string,
  preview: (file: { path: string; real_name: string }) => void
): FormServices {
  const people = new Map<string, Promise<PeopleOption[]>>()
  const sources = new Map<string, Promise<string>>()
  const formFields = { data: context.data, key_process: context.keyProcess, token: context.token }
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
    async upload(files: File[], foldertype: FolderType, field: string): Promise<UploadedFile[]> {
      const out: UploadedFile[] = []
      for (const file of files) {
        const body = await call<UploadedFile[]>('POST', '/data/form/upload/files', {
          ...formFields,
          foldertype,
          field,
          new_version: 'false',
          file,
        })
        out.push(...(body.data ?? []))
      }
      return out
    },
    async unlink(path: string) {
      await call('POST', '/data/form/upload/files/unlink', { ...formFields, path, new_version: 'false' })
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
      const body = await call<T>('POST', `/inside/forms/create/search_endpoint/${name}`, { ...formFields, ...fields })
      return body.data as T
    },
  }
}
