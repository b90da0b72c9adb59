/**
 * Saves the draft as it is designed: 1 s after the last change, one save at a time (a change made
 * while saving is saved next). The state is read from the documents themselves, so a change shows
 * "not saved" in the same render that shows the change, and an undo back to the saved document is
 * saved already.
 */
import { useEffect, useState } from 'react'
import type { DesignDocument } from '../model/index.js'
import { designerApi } from '../lib/designer_api.js'

export const SAVE_DELAY_MS = 1000
/** After a refused or failed save, the next try waits longer. */
const RETRY_DELAY_MS = 5000

export type SaveState = 'saved' | 'pending' | 'saving' | 'failed'

export interface DraftSaver {
  state: SaveState
  /** Problems the server found in the last saved draft (undefined before the first save). */
  problems: number | undefined
  error: string | undefined
}

export function useDraftSaver(formId: number, doc: DesignDocument): DraftSaver {
  const [saved, setSaved] = useState(doc)
  const [saving, setSaving] = useState<DesignDocument>()
  const [error, setError] = useState<string>()
  const [problems, setProblems] = useState<number>()

  useEffect(() => {
    if (doc === saved || saving) return
    const timer = setTimeout(
      () => {
        setSaving(doc)
        designerApi.saveDraft(formId, doc).then(
          (answer) => {
            setSaved(doc)
            setProblems(answer.problems.length)
            setError(undefined)
            setSaving(undefined)
          },
          (failure: unknown) => {
            setError(failure instanceof Error ? failure.message : String(failure))
            setSaving(undefined)
          }
        )
      },
      error ? RETRY_DELAY_MS : SAVE_DELAY_MS
    )
    return () => clearTimeout(timer)
  }, [formId, doc, saved, saving, error])

  const state: SaveState = doc === saved ? 'saved' : saving ? 'saving' : error ? 'failed' : 'pending'
  return { state, problems, error }
}
