/**
 * The QR / barcode variant of an image field (spec 000 §3): the code of a text, drawn on a canvas
 * with `qrcode` or `jsbarcode` (DESIGN.md, through form/codes.ts). A text a barcode format cannot hold is logged (spec 000 §8:
 * a failed barcode render is logged only) and the box says the code was not generated.
 */
import { useEffect, useState, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'

export interface CodeSpec {
  kind: 'qr' | 'barcode'
  /** A JsBarcode format (CODE128, EAN13, ...); ignored for QR. */
  format: string
}

/** Draws the code of `text` on `canvas`; rejects when the format cannot hold the text (codes.ts). */
export async function drawCode(canvas: HTMLCanvasElement, spec: CodeSpec, text: string, height: number): Promise<void> {
  // Loaded on first use: most forms have no code field, so the libraries stay out of the main bundle.
  const codes = await import('../../../codes.js')
  await codes.drawCode(canvas, spec.kind, text, { format: spec.format, height })
}

interface Props {
  spec: CodeSpec
  text: string
  height: number
  label: string
  /** The canvas, given by the field so it can upload what is shown. */
  canvas: RefObject<HTMLCanvasElement | null>
}

export function CodeImage({ spec, text, height, label, canvas }: Props) {
  const { t } = useTranslation()
  const [failed, setFailed] = useState(false)

  const { kind, format } = spec
  useEffect(() => {
    const target = canvas.current
    if (!target || !text) return
    let live = true
    drawCode(target, { kind, format }, text, height)
      .then(() => live && setFailed(false))
      .catch((error: unknown) => {
        console.error('code not generated', kind, format, error)
        if (live) setFailed(true)
      })
    return () => {
      live = false
    }
  }, [kind, format, text, height, canvas])

  if (!text) return <p className="media-empty">{t('media_ui.image.code_empty')}</p>
  return (
    <div className="media-code" style={{ minHeight: height }}>
      <canvas ref={canvas} role="img" aria-label={label} hidden={failed} data-testid="code-canvas" />
      {failed && <p className="media-errors">{t('document.barcode_not_generated')}</p>}
    </div>
  )
}
