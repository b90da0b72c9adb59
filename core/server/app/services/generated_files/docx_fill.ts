import Docxtemplater from 'docxtemplater'
import PizZip from 'pizzip'

/**
 * The docxtemplater fill of dev_word_to_pdf, on its own (no server imports), so the worker thread
 * that runs it (fill_worker.ts) loads only this.
 */

export class FillError extends Error {
  constructor(
    readonly key: 'not_docx' | 'template',
    detail = ''
  ) {
    super(detail)
  }
}

/** The .docx with its `{tags}` replaced; tags with no value become empty. */
export function fillDocx(bytes: Uint8Array, values: Record<string, unknown>): Buffer {
  let zip: PizZip
  try {
    zip = new PizZip(bytes)
  } catch {
    throw new FillError('not_docx')
  }
  if (!zip.file('word/document.xml')) throw new FillError('not_docx')
  try {
    const doc = new Docxtemplater(zip, {
      paragraphLoop: true,
      linebreaks: true,
      nullGetter: () => '',
      // The caller gets the reason; a bad tag in a user's template is not a server error to log.
      errorLogging: false,
    })
    doc.render(values)
    return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' })
  } catch (error) {
    // docxtemplater's multi-error lists each bad tag; its first explanation is enough for the caller.
    const errors = (error as { properties?: { errors?: { properties?: { explanation?: string } }[] } }).properties
      ?.errors
    const detail = errors?.[0]?.properties?.explanation ?? (error instanceof Error ? error.message : '')
    throw new FillError('template', detail.slice(0, 200))
  }
}
