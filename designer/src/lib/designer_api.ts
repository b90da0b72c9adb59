/** The designer's routes (core/server: DesignerController), typed as they answer. */
import { callJson as call } from '@tramita/web/json-call'

export interface FormSummary {
  id: number
  name: string
  key: string
  versions: number
  latest_version: number | null
  draft_updated_at: string | null
}

export interface FormDetail {
  id: number
  name: string
  key: string
  /** The draft, or the latest version to start one from; null for a form with neither. */
  draft: { jsonconfig: unknown; process: unknown } | null
  draft_updated_at: string | null
  versions: { version: number; published_at: string }[]
}

export interface SavedDraft {
  draft_updated_at: string | null
  problems: { path: string; message: string }[]
}

const base = '/inside/designer'

export const designerApi = {
  forms: (signal?: AbortSignal) => call<{ forms: FormSummary[] }>('GET', `${base}/forms`, undefined, signal),
  create: (name: string, template?: string) => call<{ id: number }>('POST', `${base}/forms`, { name, template }),
  form: (id: number, signal?: AbortSignal) => call<FormDetail>('GET', `${base}/forms/${id}`, undefined, signal),
  saveDraft: (id: number, draft: { name: string; jsonconfig: unknown; process: unknown }) =>
    call<SavedDraft>('PUT', `${base}/forms/${id}/draft`, draft),
  publish: (id: number) => call<{ version: number }>('POST', `${base}/forms/${id}/publish`),
  version: (id: number, version: number) =>
    call<{ version: number; jsonconfig: unknown; process: unknown; published_at: string }>(
      'GET',
      `${base}/forms/${id}/versions/${version}`
    ),
  templates: (signal?: AbortSignal) =>
    call<{ templates: { id: string; name: string }[] }>('GET', `${base}/templates`, undefined, signal),
}
