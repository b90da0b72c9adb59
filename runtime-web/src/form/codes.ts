/**
 * QR codes (`qrcode`) and barcodes (`jsbarcode`) as PNG images (spec 000 §9, 001 §9: "barcode PNG
 * quality 0.9"), for the create_bar_code_qr action and the code variant of image fields. Both
 * libraries load on first use. A code that cannot be made is logged only (spec 000 §8) and the
 * caller gets a CodeError to react to (the action reports it; nothing is shown by this module).
 */

export type CodeKind = 'qr' | 'barcode'

/** The spec's PNG quality (browsers ignore it for PNG; kept so a JPEG switch keeps the spec's value). */
export const CODE_IMAGE_QUALITY = 0.9
export const DEFAULT_BARCODE_FORMAT = 'CODE128'

export class CodeError extends Error {
  constructor(
    readonly kind: CodeKind,
    readonly reason: 'empty' | 'invalid' | 'render',
    detail = ''
  ) {
    super(`${kind} not generated (${reason})${detail ? `: ${detail}` : ''}`)
    this.name = 'CodeError'
  }
}

/**
 * Why `value` cannot be drawn as this code, or null when it can. Runs without a DOM (jsbarcode encodes
 * into a plain object, qrcode builds the symbol), so it is unit-tested in Node.
 */
export async function codeProblem(kind: CodeKind, value: string, format = DEFAULT_BARCODE_FORMAT) {
  if (kind !== 'qr' && kind !== 'barcode') return new CodeError(kind, 'invalid', 'unknown kind')
  if (typeof value !== 'string' || value === '') return new CodeError(kind, 'empty')
  if (kind === 'qr') {
    const { default: QRCode } = await import('qrcode')
    try {
      QRCode.create(value, { errorCorrectionLevel: 'M' })
      return null
    } catch (error) {
      return new CodeError(kind, 'invalid', error instanceof Error ? error.message : String(error))
    }
  }
  const { default: JsBarcode } = await import('jsbarcode')
  let ok = true
  try {
    JsBarcode({}, value, { format: format || DEFAULT_BARCODE_FORMAT, valid: (valid: boolean) => (ok &&= valid) })
  } catch (error) {
    // An unknown format throws instead of calling `valid`.
    return new CodeError(kind, 'invalid', error instanceof Error ? error.message : String(error))
  }
  return ok ? null : new CodeError(kind, 'invalid', `"${value}" is not a valid ${format} value`)
}

/** Draws the code on a canvas; `height` is the image field's box (the QR's side, the bars plus text). */
export async function drawCode(
  canvas: HTMLCanvasElement,
  kind: CodeKind,
  value: string,
  options: { format?: string; height?: number } = {}
): Promise<void> {
  const problem = await codeProblem(kind, value, options.format)
  if (problem) throw problem
  const height = options.height ?? 180
  if (kind === 'qr') {
    const { default: QRCode } = await import('qrcode')
    await QRCode.toCanvas(canvas, value, { margin: 1, width: Math.max(64, height), errorCorrectionLevel: 'M' })
    return
  }
  const { default: JsBarcode } = await import('jsbarcode')
  JsBarcode(canvas, value, {
    format: options.format || DEFAULT_BARCODE_FORMAT,
    height: Math.max(20, height - 40),
    displayValue: true,
    margin: 4,
  })
}

/** The code of `value` as a PNG; rejects with a CodeError (already logged) when it cannot be made. */
export async function renderCode(kind: CodeKind, value: string, format?: string): Promise<Blob> {
  try {
    const problem = await codeProblem(kind, value, format)
    if (problem) throw problem
    const canvas = document.createElement('canvas')
    await drawCode(canvas, kind, value, { format })
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png', CODE_IMAGE_QUALITY))
    if (!blob) throw new CodeError(kind, 'render', 'the canvas gave no image')
    return blob
  } catch (error) {
    const failure = error instanceof CodeError ? error : new CodeError(kind, 'render', String(error))
    console.error('code not generated', kind, format ?? '', failure)
    throw failure
  }
}
