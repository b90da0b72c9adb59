import { parentPort, workerData } from 'node:worker_threads'
import { PDFDocument } from 'pdf-lib'
import { limitDecodedStreams } from '@tramita/plugin-api/pdf-limits'

/** Throws when a stream of a loaded PDF decoded past its limits (@tramita/plugin-api/pdf-limits). */
const withinDecodeLimits = limitDecodedStreams()

/**
 * A PDF's page count in a worker thread (library/pdf_pages.ts starts it with limits): pdf-lib inflates
 * the file's object streams while it reads it, which a hostile PDF can make slow or huge (@tramita/plugin-api/pdf-limits
 * caps what it inflates). Posts `{ pages }`, null when pdf-lib cannot read the file or inflates too much.
 */
async function count(bytes: Uint8Array): Promise<number | null> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })
    withinDecodeLimits()
    return doc.getPageCount()
  } catch {
    return null
  }
}

parentPort!.postMessage({ pages: await count((workerData as { bytes: Uint8Array }).bytes) })
