import { parentPort, workerData } from 'node:worker_threads'
import { PDFDocument } from 'pdf-lib'
import { limitDecodedStreams } from '@tramita/plugin-api/pdf-limits'

/** Throws when a stream of a loaded PDF decoded past its limits (@tramita/plugin-api/pdf-limits). */
const withinDecodeLimits = limitDecodedStreams()

/**
 * Joins PDFs in a worker thread (merge.ts starts it with heap and time limits): a large or hostile PDF
 * makes this thread slow or out of memory, never the server's event loop. Posts the joined bytes, or
 * `{ error: index }` naming the first input pdf-lib cannot read (or that is encrypted).
 */
async function join(inputs: Uint8Array[]): Promise<void> {
  const out = await PDFDocument.create()
  for (const [index, bytes] of inputs.entries()) {
    let doc: PDFDocument
    try {
      doc = await PDFDocument.load(bytes, { updateMetadata: false })
      withinDecodeLimits()
    } catch {
      parentPort!.postMessage({ error: index })
      return
    }
    const pages = await out.copyPages(doc, doc.getPageIndices())
    for (const page of pages) out.addPage(page)
  }
  const bytes = await out.save()
  parentPort!.postMessage({ bytes, pages: out.getPageCount() }, [bytes.buffer as ArrayBuffer])
}

void join((workerData as { inputs: Uint8Array[] }).inputs)
