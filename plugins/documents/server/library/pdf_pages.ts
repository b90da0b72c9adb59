import type { PluginStorage, StoredObject } from '@tramita/plugin-api'

/** PDFs larger than this are not parsed for their page count (pdf-lib holds the whole file in memory). */
export const PAGE_COUNT_MAX_BYTES = 32 * 1024 * 1024

/** A stored PDF's page count, or null (not a PDF, too large to parse here, or unreadable). */
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
    const { PDFDocument } = await import('pdf-lib') // 170 modules a boot without a PDF does not need
    const doc = await PDFDocument.load(bytes.subarray(0, at), { ignoreEncryption: true, updateMetadata: false })
    return doc.getPageCount()
  } catch {
    return null
  }
}
