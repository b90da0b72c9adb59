import type { PluginStorage, StoredObject } from '@tramita/plugin-api'
import { runBounded } from '@tramita/plugin-api/workers'

/** PDFs larger than this are not parsed for their page count (pdf-lib holds the whole file in memory). */
export const PAGE_COUNT_MAX_BYTES = 32 * 1024 * 1024

/** The page count's worker: past these it is stopped and the count is unknown. */
const WORKER = new URL('../pdf/page_count_worker.ts', import.meta.url)
const WORKER_LIMITS = { heapMb: 256, timeoutMs: 30_000 }

/**
 * A stored PDF's page count, or null (not a PDF, too large to parse here, unreadable, or too heavy for
 * the worker's limits). Read here, parsed in a worker thread: never on the server's event loop.
 */
export async function pdfPages(storage: Pick<PluginStorage, 'read'>, object: StoredObject): Promise<number | null> {
  if (object.mime !== 'application/pdf' || object.size > PAGE_COUNT_MAX_BYTES) return null
  const bytes = new Uint8Array(object.size)
  let at = 0
  for await (const chunk of await storage.read(object.key)) {
    if (at + chunk.length > bytes.length) return null
    bytes.set(chunk, at)
    at += chunk.length
  }
  try {
    const read = bytes.subarray(0, at)
    const answer = await runBounded<{ pages: number | null }>(WORKER, { bytes: read }, WORKER_LIMITS, [read.buffer])
    return answer.pages
  } catch {
    return null
  }
}
