/**
 * The documents plugin's action types and handlers (spec 001 §4: search_doc_folder, get_info_doc_folder,
 * copy_cut_docs, rename_doc_folder, merge_docs, zip_docs), composed into the action engine by
 * `virtual:tramita-actions` from this module (`./action-handlers`): default export the handlers, `types`
 * their contract action types. Each step calls the operations area's route (shared/operations.ts).
 *
 * Handlers are plain `{ type, plugin, run }` values (what the actions plugin's defineActionHandler
 * makes): a plugin does not import another, so the engine's shapes are restated here, structurally.
 */
import { buildRequest, interpretBody, readSession } from '@tramita/web/api'
import { OPERATIONS_PATHS, type SearchAnswer } from '../shared/operations.js'
import { documentsActionTypes } from '../shared/action_types.js'

/** What a handler uses of the engine's step context (plugins/actions/web/types.ts StepContext). */
export interface DocumentsStep {
  form: {
    setValue(name: string, value: unknown): void
    overlays: { track?<T>(name: string, work: Promise<T>): Promise<T> }
  }
  host: {
    post(path: string, fields: Record<string, string | Blob>): Promise<unknown>
    toast(kind: 'success' | 'error', key: string): void
  }
  fill(template: string): string
}

export interface DocumentsHandler {
  readonly type: string
  readonly plugin: 'documents'
  run(config: Record<string, unknown>, step: DocumentsStep): Promise<void>
}

/** Sends a route's file answer to the user (the browser: a download); a failure rejects with the server's message. */
export type Download = (path: string, fields: Record<string, string>, name: string) => Promise<void>

/** The action types these handlers run (shared/action_types.ts, also the package's `./action-types`). */
export const types = documentsActionTypes

/** Ids typed as "1, 2" or a JSON list, for a route's id-list field (sent as JSON). */
export function idsField(text: string): string {
  const trimmed = text.trim()
  if (trimmed.startsWith('[')) return trimmed
  return JSON.stringify(
    trimmed
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean)
  )
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

function track<T>(step: DocumentsStep, name: string, work: Promise<T>): Promise<T> {
  return step.form.overlays.track ? step.form.overlays.track(name, work) : work
}

/** The handlers, with the way a file answer reaches the user (tests pass their own). */
export function documentsActionHandlers(download: Download = browserDownload): DocumentsHandler[] {
  const handler = (type: string, run: DocumentsHandler['run']): DocumentsHandler =>
    Object.freeze({ type, plugin: 'documents' as const, run })

  const merge = (type: 'merge_docs' | 'zip_docs') =>
    handler(type, async (config, step) => {
      const extension = type === 'merge_docs' ? 'pdf' : 'zip'
      const base = step.fill(text(config.name)) || (type === 'merge_docs' ? 'documento' : 'documentos')
      const name = base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`
      const fields: Record<string, string> = {
        rutes_merge: idsField(step.fill(text(config.documents))),
        name_doc: name,
        type_merge: type,
        save_doc: String(config.save === true),
        folder_id: step.fill(text(config.folder)).trim(),
      }
      if (config.save !== true) {
        await track(step, name, download(OPERATIONS_PATHS.merge, fields, name))
        return
      }
      const filed = await track(step, name, step.host.post(OPERATIONS_PATHS.merge, fields))
      const field = text(config.field)
      if (field) step.form.setValue(field, (filed as { file?: unknown } | null)?.file ?? null)
      step.host.toast('success', 'doc_subido_success')
    })

  return [
    handler('search_doc_folder', async (config, step) => {
      const where = step.fill(text(config.jsonwhere)).trim()
      let jsonwhere: Record<string, unknown> = {}
      if (where) {
        const parsed: unknown = JSON.parse(where)
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('jsonwhere is not an object')
        jsonwhere = parsed as Record<string, unknown>
      }
      const words = step.fill(text(config.text)).trim()
      if (words) jsonwhere = { ...jsonwhere, text: words }
      const answer = (await step.host.post(OPERATIONS_PATHS.search, {
        type_search: text(config.type_search) || 'doc',
        id_folder: step.fill(text(config.id_folder)).trim(),
        path: step.fill(text(config.path)).trim(),
        subcarpetas: String(config.subfolders === true),
        jsonwhere: JSON.stringify(jsonwhere),
      })) as SearchAnswer
      const rows = [
        ...(answer?.folders ?? []).map((folder) => ({ kind: 'folder', ...folder })),
        ...(answer?.documents ?? []).map((doc) => ({ kind: 'doc', ...doc })),
      ]
      step.form.setValue(text(config.field), rows)
    }),
    handler('get_info_doc_folder', async (config, step) => {
      const folder = config.kind === 'folder'
      const id = step.fill(text(config.id)).trim()
      const info = await step.host.post(
        folder ? OPERATIONS_PATHS.infoFolder : OPERATIONS_PATHS.infoDoc,
        folder ? { id_folder: id } : { id_doc: id }
      )
      step.form.setValue(text(config.field), info)
    }),
    handler('copy_cut_docs', async (config, step) => {
      await step.host.post(OPERATIONS_PATHS.copy, {
        type: config.type === 'cut' ? 'cut' : 'copy',
        id_doc: idsField(step.fill(text(config.documents))),
        id_folder: idsField(step.fill(text(config.folders))),
        folder_dest: step.fill(text(config.folder_dest)).trim(),
      })
    }),
    handler('rename_doc_folder', async (config, step) => {
      const id = step.fill(text(config.id)).trim()
      const name = step.fill(text(config.name))
      if (config.kind === 'folder')
        await step.host.post(OPERATIONS_PATHS.renameFolder, { id_folder: id, name_folder: name })
      else await step.host.post(OPERATIONS_PATHS.renameDoc, { id_doc: id, name_doc: name })
    }),
    merge('merge_docs'),
    merge('zip_docs'),
  ]
}

/** The browser's download: the call with the session's headers, the answer saved under `name`. */
export async function browserDownload(path: string, fields: Record<string, string>, name: string): Promise<void> {
  const language = globalThis.document?.documentElement.lang || undefined
  const { url, init } = buildRequest('POST', path, fields, readSession(), {}, language)
  const response = await fetch(url, { ...init, credentials: 'same-origin' })
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('application/json')) {
    const outcome = interpretBody(await response.json().catch(() => null))
    throw new Error(outcome.ok ? 'no file in the answer' : outcome.message)
  }
  const href = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = href
  link.download = name
  link.click()
  // The click has started the download; the object URL is no longer needed after it.
  setTimeout(() => URL.revokeObjectURL(href), 1000)
}

export default documentsActionHandlers()
