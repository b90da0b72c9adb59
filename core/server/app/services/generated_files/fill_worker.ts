import { parentPort, workerData } from 'node:worker_threads'
import { FillError, fillDocx } from './docx_fill.js'

/**
 * One dev_word_to_pdf fill, in a worker thread with its own heap limit (word.ts): a template that
 * takes seconds or gigabytes to fill costs this thread, never the server's event loop.
 */
const { bytes, values } = workerData as { bytes: Uint8Array; values: Record<string, unknown> }
try {
  const filled = fillDocx(bytes, values)
  parentPort!.postMessage({ ok: true, bytes: filled })
} catch (error) {
  if (error instanceof FillError) parentPort!.postMessage({ ok: false, key: error.key, detail: error.message })
  else parentPort!.postMessage({ ok: false, key: 'template', detail: String((error as Error)?.message ?? error) })
}
