/**
 * The signing flow's template (spec 000 §7: /static/plantillas/plantilla_firma.pdf): one letter page
 * with a marked box. A signing app or pad signs inside the box and sends the PDF back; the server keeps
 * only what is inside it (render.ts). The box is where it is on every page size, in fractions of the page.
 */

/** Letter, in PDF points. */
export const TEMPLATE_PAGE = { width: 612, height: 792 } as const
/** The signature box, in points from the page's bottom left (PDF's origin). */
export const SIGNATURE_BOX = { x: 126, y: 336, width: 360, height: 144 } as const
/** What is kept of a signed page: the box inside its border, so the picture is the signature alone. */
const INSET = 4
export const SIGNATURE_AREA = {
  x: SIGNATURE_BOX.x + INSET,
  y: SIGNATURE_BOX.y + INSET,
  width: SIGNATURE_BOX.width - 2 * INSET,
  height: SIGNATURE_BOX.height - 2 * INSET,
} as const

let made: Promise<Uint8Array> | null = null

/** The template's bytes, made once per process (the same for everyone: cached by browsers and proxies). */
export function templatePdf(label: string, hint: string): Promise<Uint8Array> {
  made ??= draw(label, hint).catch((error: unknown) => {
    made = null
    throw error
  })
  return made
}

async function draw(label: string, hint: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib') // loaded on the first template only
  const doc = await PDFDocument.create()
  doc.setTitle(label)
  doc.setCreator('Tramita')
  // Fixed dates: the same bytes on every node and restart.
  doc.setCreationDate(new Date(0))
  doc.setModificationDate(new Date(0))
  const page = doc.addPage([TEMPLATE_PAGE.width, TEMPLATE_PAGE.height])
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const box = SIGNATURE_BOX
  page.drawText(label, { x: box.x, y: box.y + box.height + 14, size: 14, font, color: rgb(0.1, 0.1, 0.1) })
  page.drawRectangle({
    ...box,
    borderColor: rgb(0.1, 0.3, 0.8),
    borderWidth: 1.5,
    borderDashArray: [6, 4],
  })
  // The hint under the box: nothing is drawn inside it, so an unsigned box is a blank picture.
  page.drawText(hint, { x: box.x, y: box.y - 18, size: 10, font, color: rgb(0.35, 0.35, 0.35) })
  return doc.save({ useObjectStreams: false })
}
