import { PDFDocument, PageSizes } from 'pdf-lib'
import { idCardSizeMm } from '@tramita/contract'
import { runBounded } from '@tramita/plugin-api/workers'
import { pngPixels } from '#lib/png_size'

/**
 * The ID card scan (spec 000 §2, §7 cardim_*): the two faces of a card joined into one PDF with
 * pdf-lib, one face per page, each at the card's real size (ID-1, ISO/IEC 7810: 85.60 × 53.98 mm)
 * or enlarged 150 % (spec 000 §9; the contract's idCardSizeMm), centred near the top of a letter page as a photocopy would be.
 */

const PT_PER_MM = 72 / 25.4
const TOP_MARGIN_PT = 72

export type FaceKind = 'image/png' | 'image/jpeg' | 'application/pdf'
export const FACE_KINDS: readonly string[] = ['image/png', 'image/jpeg', 'application/pdf']

export interface Face {
  bytes: Uint8Array
  mime: FaceKind
}

/** One PDF, front on page 1 and back on page 2; rejects a face pdf-lib cannot read. */
export async function idCardPdf(front: Face, back: Face, enlarged: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.setTitle('ID card')
  doc.setProducer('Tramita')
  const size = idCardSizeMm(enlarged)
  const box = { width: size.width * PT_PER_MM, height: size.height * PT_PER_MM }
  for (const face of [front, back]) {
    const page = doc.addPage(PageSizes.Letter)
    const drawable = await embed(doc, face)
    // A portrait photo of the card is a card held upright: the box turns with it.
    const portrait = drawable.height > drawable.width
    const target = portrait ? { width: box.height, height: box.width } : box
    const scale = Math.min(target.width / drawable.width, target.height / drawable.height)
    const width = drawable.width * scale
    const height = drawable.height * scale
    const x = (page.getWidth() - width) / 2
    const y = page.getHeight() - TOP_MARGIN_PT - height
    if (drawable.kind === 'image') page.drawImage(drawable.image, { x, y, width, height })
    else page.drawPage(drawable.page, { x, y, width, height })
  }
  return doc.save()
}

/**
 * A PNG face's most pixels. pdf-lib decodes a PNG whole, outside the worker's heap limit: a 49 MP face
 * (190 KB of PNG, under the upload's 50 MP) took the process's memory up by 813 MB; 16 MP, by about
 * 300 MB. A card scanned at 1200 dpi is 10 MP, and a phone's photo 12 to 16 MP. JPEG faces are not
 * decoded (pdf-lib embeds their bytes).
 */
export const MAX_FACE_PIXELS = 16_000_000

/** A PDF page of a card takes well under a second; a face that takes longer is not a card's. */
const IDCARD_LIMITS = { heapMb: 256, timeoutMs: 20_000 }

/** idCardPdf in a worker thread with heap and time limits (@tramita/plugin-api/workers); rejects as it does. */
export function idCardPdfBounded(front: Face, back: Face, enlarged: boolean): Promise<Uint8Array> {
  return runBounded<Uint8Array>(
    new URL('./idcard_worker.ts', import.meta.url),
    { front, back, enlarged },
    IDCARD_LIMITS
  )
}

async function embed(doc: PDFDocument, face: Face) {
  if (face.mime === 'application/pdf') {
    // A scanner's face arrives as a PDF: its first page is drawn like an image.
    const source = await PDFDocument.load(face.bytes, { ignoreEncryption: false })
    const [page] = await doc.embedPdf(source, [0])
    return { kind: 'page' as const, page: page!, width: page!.width, height: page!.height }
  }
  if (face.mime === 'image/png' && (pngPixels(face.bytes) ?? 0) > MAX_FACE_PIXELS) {
    throw new Error(`a PNG face of more than ${MAX_FACE_PIXELS} pixels`)
  }
  const image = face.mime === 'image/png' ? await doc.embedPng(face.bytes) : await doc.embedJpg(face.bytes)
  return { kind: 'image' as const, image, width: image.width, height: image.height }
}
