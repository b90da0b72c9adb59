/**
 * Uploads of one field: the files in flight or queued (shown with a progress bar), the refusals and
 * failures (shown under the control), and which paths were uploaded in this session — only those are
 * unlinked on removal, because a file saved by an earlier step belongs to the case until the next save.
 * A failed POST clears the pending uploads (spec 000 §8): the queued files are not sent, and one in
 * flight when another POST of the form failed is aborted (services.ts, UploadsCleared).
 */
import { useCallback, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FolderType, RuntimeServices, UploadedFile } from '../../../types.js'
import { UploadsCleared } from '../../../services.js'

export interface PendingUpload {
  id: number
  name: string
}

export interface Uploader {
  pending: readonly PendingUpload[]
  errors: readonly string[]
  /** Replaces the messages shown (refusals found before uploading). */
  setErrors(messages: string[]): void
  /** Uploads one file; resolves its entry, or null after showing why it failed. */
  upload(file: File): Promise<UploadedFile | null>
  /**
   * Uploads files one after another, handing each entry to `each` as it arrives; after a failure the
   * rest are not sent (listed as cleared).
   */
  uploadAll(files: File[], each: (entry: UploadedFile) => void): Promise<void>
  /** Forgets a file of the value: unlinked on the server only when this session uploaded it. */
  discard(path: string): void
}

let nextId = 1

export function useUploader(services: RuntimeServices, foldertype: FolderType, field: string): Uploader {
  const { t } = useTranslation()
  const [pending, setPending] = useState<PendingUpload[]>([])
  const [errors, setErrors] = useState<string[]>([])
  const uploaded = useRef(new Set<string>())

  /** One upload; `id` is its entry in `pending`, already listed (uploadAll lists the whole queue). */
  const send = useCallback(
    async (file: File, id: number): Promise<UploadedFile | null> => {
      try {
        const [entry] = await services.upload([file], foldertype, field)
        if (!entry || entry.status !== 'good' || !entry.path) throw new Error(t('media_ui.upload_bad_answer'))
        uploaded.current.add(entry.path)
        return entry
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        setErrors((list) => [
          ...list,
          error instanceof UploadsCleared
            ? t('media_ui.upload_cleared', { file: file.name })
            : t('media_ui.upload_failed', { file: file.name, message }),
        ])
        return null
      } finally {
        setPending((list) => list.filter((p) => p.id !== id))
      }
    },
    [services, foldertype, field, t]
  )

  const upload = useCallback(
    (file: File): Promise<UploadedFile | null> => {
      const id = nextId++
      setPending((list) => [...list, { id, name: file.name }])
      return send(file, id)
    },
    [send]
  )

  const uploadAll = useCallback(
    async (files: File[], each: (entry: UploadedFile) => void) => {
      const queue = files.map((file) => ({ file, id: nextId++ }))
      setPending((list) => [...list, ...queue.map(({ file, id }) => ({ id, name: file.name }))])
      for (const [index, { file, id }] of queue.entries()) {
        const entry = await send(file, id)
        if (entry) {
          each(entry)
          continue
        }
        const rest = queue.slice(index + 1)
        const dropped = new Set(rest.map((queued) => queued.id))
        setPending((list) => list.filter((p) => !dropped.has(p.id)))
        setErrors((list) => [...list, ...rest.map(({ file }) => t('media_ui.upload_cleared', { file: file.name }))])
        return
      }
    },
    [send, t]
  )

  const discard = useCallback(
    (path: string) => {
      if (!uploaded.current.delete(path)) return
      // The value no longer names it either way; a failed unlink leaves an orphan the server sweeps.
      services.unlink(path).catch((error: unknown) => console.error('unlink failed', path, error))
    },
    [services]
  )

  return { pending, errors, setErrors, upload, uploadAll, discard }
}
