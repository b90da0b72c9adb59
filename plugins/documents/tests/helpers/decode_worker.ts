import { parentPort, workerData } from 'node:worker_threads'
import { PDFDocument } from 'pdf-lib'
import { DECODE_LIMITS, limitDecodedStreams } from '@tramita/plugin-api/pdf-limits'

/** pdf-lib's load under the given decode limits, in a worker (pdf_decode_limits.spec): posts the page count or the error. */
const { bytes, limits } = workerData as { bytes: Uint8Array; limits: typeof DECODE_LIMITS }
const withinDecodeLimits = limitDecodedStreams(limits)
try {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  withinDecodeLimits()
  parentPort!.postMessage({ pages: doc.getPageCount() })
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message })
}
