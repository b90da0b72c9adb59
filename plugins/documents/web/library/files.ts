/**
 * Moving files: uploads (one request per file, so each has its own progress; two at a time) and
 * downloads, both in the progress panel; the bytes a preview shows. The content route needs the
 * session's headers, so bytes are fetched and handed to the browser as object URLs.
 */
import { receiveWithProgress, sendWithProgress } from '@tramita/web/transfer'
import { libraryPath, type FileRow, type UploadAnswer, type UploadResult, type Usage } from '../../shared/library.js'
import { contentPath, searchablePath } from './api.js'
import { startTransfer } from './transfers.js'

/** Uploads at the same time: enough to keep the line busy, few enough to show each one moving. */
const PARALLEL_UPLOADS = 2

export interface UploadOutcome {
  results: UploadResult[]
  /** The latest usage the server answered (null when no request was answered). */
  usage: Usage | null
  /** Messages of requests that failed as a whole (the quota, the size cap, the network). */
  failures: string[]
}

/** Uploads files into a folder (null: my root), or one file as the new version of `newVersionOf`. */
export async function uploadFiles(
  files: readonly File[],
  folder: number | null,
  newVersionOf?: number
): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { results: [], usage: null, failures: [] }
  const queue = [...files]
  async function worker() {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const item = startTransfer(file.name, 'up', file.size)
      try {
        const fields: Record<string, File | number> = { files: file }
        if (folder !== null) fields.folder_id = folder
        if (newVersionOf !== undefined) fields.new_version_of = newVersionOf
        const body = await sendWithProgress<UploadAnswer>('POST', libraryPath('upload'), fields, item.progress)
        const answer = body.data!
        outcome.results.push(...answer.results)
        outcome.usage = answer.usage
        if (answer.results.some((result) => result.status !== 'stored')) item.failed()
        else item.done()
      } catch (error) {
        outcome.failures.push(error instanceof Error ? error.message : String(error))
        item.failed()
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, files.length) }, worker))
  return outcome
}

/**
 * Saves a file (or one of its versions) on the user's machine, with its progress in the panel; rejects
 * with the server's message.
 */
export function downloadFile(file: Pick<FileRow, 'id' | 'name' | 'size'>, version?: number): Promise<void> {
  return downloadFrom(contentPath(file.id, true, version), file.name, file.size)
}

/** The searchable PDF an OCR run made of the file, saved as "<name>.pdf". */
export function downloadSearchable(file: Pick<FileRow, 'id' | 'name'>): Promise<void> {
  return downloadFrom(searchablePath(file.id), `${file.name.replace(/\.[^.]*$/, '')}.pdf`, null)
}

async function downloadFrom(path: string, name: string, size: number | null): Promise<void> {
  const item = startTransfer(name, 'down', size)
  try {
    const blob = await receiveWithProgress(path, item.progress)
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = name
    link.click()
    // The click has handed the URL to the download; freeing it later keeps slow browsers safe.
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    item.done()
  } catch (error) {
    item.failed()
    throw error
  }
}

/** The file's bytes as an object URL for the preview (the caller revokes it when the preview closes). */
export async function previewUrl(file: Pick<FileRow, 'id'>, signal?: AbortSignal): Promise<string> {
  const blob = await receiveWithProgress(contentPath(file.id, false), () => undefined, signal)
  return URL.createObjectURL(blob)
}
