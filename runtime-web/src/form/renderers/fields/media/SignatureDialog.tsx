/**
 * The signature dialog (spec 000 §2, 001 §4): draw with a pen (black, red, blue, or one of a palette of
 * 24 colours) with undo and clear, type a name (default text Guest) drawn in a handwriting face, or
 * upload a picture (.jpg, .jpeg, .png), or load one from a signing app or device (signpro mode,
 * SignatureDevice.tsx, when a plugin brings devices). Save is active only with content; it hands back a PNG.
 * Drawing is `signature_pad` (DESIGN.md: a well-kept library made for the job).
 */
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import SignaturePad, { type PointGroup } from 'signature_pad'
import { checkFileUpload } from '@tramita/contract'
import { Dialog } from '@tramita/web/Dialog'
import { canvasPng } from './imageCanvas.js'
import { refusalMessage } from './media_rules.js'
import { SignatureDevice, signatureDevicesFor } from './SignatureDevice.js'
import './media.css'

export const PEN_COLORS = ['#000000', '#d11a1a', '#1a3fd1'] as const
/** The palette beside the three pens (spec: 24 colours). */
export const PALETTE = [
  '#000000',
  '#434343',
  '#666666',
  '#999999',
  '#7f0000',
  '#cc0000',
  '#e06666',
  '#ff6d01',
  '#b45f06',
  '#bf9000',
  '#7f6000',
  '#38761d',
  '#6aa84f',
  '#274e13',
  '#134f5c',
  '#45818e',
  '#0b5394',
  '#3d85c6',
  '#1c4587',
  '#351c75',
  '#674ea7',
  '#741b47',
  '#a64d79',
  '#c27ba0',
] as const
/** Picture types a signature may be uploaded as (spec 001 §8). */
export const SIGNATURE_UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const
/** The saved file's name (spec 001 §9: "shared image saved as firma.png"). */
export const SIGNATURE_FILE_NAME = 'firma.png'
const HANDWRITING = '"Segoe Script", "Brush Script MT", "Lucida Handwriting", "URW Chancery L", cursive'

type Mode = 'draw' | 'type' | 'upload' | 'device'

interface Props {
  height: number
  /** The signature field and its form's key: what a device's signature is staged for. */
  field: string
  form?: string
  onSave(png: File): Promise<void>
  onClose(): void
}

export function SignatureDialog({ height, field, form, onSave, onClose }: Props) {
  const { t } = useTranslation()
  const canvas = useRef<HTMLCanvasElement>(null)
  const pad = useRef<SignaturePad | null>(null)
  const strokes = useRef<PointGroup[]>([])
  const picture = useRef<ImageBitmap | null>(null)
  const [mode, setMode] = useState<Mode>('draw')
  const [color, setColor] = useState<string>(PEN_COLORS[0])
  const [paletteOpen, setPaletteOpen] = useState(false)
  const [drawn, setDrawn] = useState(0)
  const [name, setName] = useState(() => t('signature.guest'))
  const [uploaded, setUploaded] = useState(false)
  const [error, setError] = useState('')
  const [saving, setSaving] = useState(false)
  const nameId = useId()
  const paletteId = useId()

  // One pad for the dialog's life; the canvas is sized to its box in device pixels so lines stay sharp.
  useEffect(() => {
    const target = canvas.current!
    const ratio = Math.max(window.devicePixelRatio || 1, 1)
    target.width = target.offsetWidth * ratio
    target.height = target.offsetHeight * ratio
    target.getContext('2d')!.scale(ratio, ratio)
    const created = new SignaturePad(target, { penColor: PEN_COLORS[0], minWidth: 0.8, maxWidth: 2.6 })
    const onEnd = () => {
      strokes.current = created.toData()
      setDrawn(strokes.current.length)
    }
    created.addEventListener('endStroke', onEnd)
    pad.current = created
    return () => {
      created.removeEventListener('endStroke', onEnd)
      created.off()
      picture.current?.close()
    }
  }, [])

  // What the canvas shows follows the mode: strokes, the typed name, or the uploaded picture.
  useEffect(() => {
    const current = pad.current
    const target = canvas.current
    if (!current || !target) return
    current.penColor = color
    current.clear()
    if (mode === 'draw') {
      current.on()
      current.fromData(strokes.current)
      return
    }
    current.off()
    const context = target.getContext('2d')!
    const width = target.offsetWidth
    const boxHeight = target.offsetHeight
    if (mode === 'type' && name.trim()) {
      let size = Math.round(boxHeight * 0.35)
      context.font = `italic ${size}px ${HANDWRITING}`
      while (size > 12 && context.measureText(name).width > width - 24) {
        size -= 2
        context.font = `italic ${size}px ${HANDWRITING}`
      }
      context.fillStyle = color
      context.textAlign = 'center'
      context.textBaseline = 'middle'
      context.fillText(name.trim(), width / 2, boxHeight / 2)
    } else if ((mode === 'upload' || mode === 'device') && picture.current) {
      const bitmap = picture.current
      const scale = Math.min((width - 16) / bitmap.width, (boxHeight - 16) / bitmap.height, 1)
      const w = bitmap.width * scale
      const h = bitmap.height * scale
      context.drawImage(bitmap, (width - w) / 2, (boxHeight - h) / 2, w, h)
    }
  }, [mode, color, name, uploaded])

  function undo() {
    strokes.current = strokes.current.slice(0, -1)
    pad.current?.fromData(strokes.current)
    setDrawn(strokes.current.length)
  }

  function clear() {
    if (mode === 'draw') {
      strokes.current = []
      pad.current?.clear()
      setDrawn(0)
    } else if (mode === 'type') setName('')
    else {
      picture.current?.close()
      picture.current = null
      setUploaded(false)
    }
  }

  async function choosePicture(file: File | undefined) {
    if (!file) return
    const check = checkFileUpload(
      { name: file.name, mime: file.type },
      { allowed: SIGNATURE_UPLOAD_EXTENSIONS, limit: -1, count: 0, imagesOnly: true }
    )
    if (!check.ok) {
      const { key, vars } = refusalMessage(check.reason, file.name, [...SIGNATURE_UPLOAD_EXTENSIONS])
      setError(t(key, vars))
      return
    }
    try {
      const bitmap = await createImageBitmap(file)
      picture.current?.close()
      picture.current = bitmap
      setError('')
      setUploaded(true)
    } catch (failure) {
      console.error('signature picture unreadable', failure)
      setError(t('media_ui.signature.unreadable', { file: file.name }))
    }
  }

  const hasContent = mode === 'draw' ? drawn > 0 : mode === 'type' ? name.trim() !== '' : uploaded
  /** Pens and colours are for what is drawn or typed, not for a picture. */
  const inked = mode === 'draw' || mode === 'type'

  async function save() {
    if (!hasContent || !canvas.current) return
    setSaving(true)
    setError('')
    try {
      await onSave(await canvasPng(canvas.current, SIGNATURE_FILE_NAME))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setSaving(false)
    }
  }

  const modes: Mode[] = signatureDevicesFor(form) ? ['draw', 'type', 'upload', 'device'] : ['draw', 'type', 'upload']
  const swatch = (value: string, big: boolean) => (
    <button
      key={value}
      type="button"
      className={`media-swatch${big ? ' media-swatch--pen' : ''}`}
      style={{ background: value }}
      aria-pressed={color === value}
      aria-label={t('media_ui.signature.color', { color: value })}
      title={value}
      onClick={() => setColor(value)}
    />
  )
  return (
    <Dialog title={t('media_ui.signature.title')} onClose={onClose} testId="signature-dialog">
      <div className="media-tabs" role="group" aria-label={t('media_ui.signature.mode')}>
        {modes.map((m) => (
          <button key={m} type="button" className="media-tab" aria-pressed={mode === m} onClick={() => setMode(m)}>
            {t(`media_ui.signature.modes.${m}`)}
          </button>
        ))}
      </div>
      {inked && (
        <div className="media-pens">
          {PEN_COLORS.map((c) => swatch(c, true))}
          <button
            type="button"
            className="media-link-button"
            aria-expanded={paletteOpen}
            aria-controls={paletteId}
            onClick={() => setPaletteOpen((open) => !open)}
          >
            {t('media_ui.signature.more_colors')}
          </button>
        </div>
      )}
      {inked && paletteOpen && (
        <div className="media-palette" id={paletteId} role="group" aria-label={t('media_ui.signature.palette')}>
          {PALETTE.map((c) => swatch(c, false))}
        </div>
      )}
      {mode === 'type' && (
        <label className="media-field-row" htmlFor={nameId}>
          <span>{t('media_ui.signature.name')}</span>
          <input
            id={nameId}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            data-testid="signature-name"
          />
        </label>
      )}
      {mode === 'upload' && (
        <label className="media-field-row">
          <span>{t('media_ui.signature.picture')}</span>
          <input
            type="file"
            accept={SIGNATURE_UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',')}
            data-testid="signature-file"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ''
              void choosePicture(file)
            }}
          />
        </label>
      )}
      {mode === 'device' && signatureDevicesFor(form) && (
        <SignatureDevice field={field} form={form} onPicture={(file) => void choosePicture(file)} />
      )}
      <canvas
        ref={canvas}
        className={`media-signature-pad${mode === 'draw' ? ' media-signature-pad--draw' : ''}`}
        style={{ height }}
        role="img"
        aria-label={mode === 'draw' ? t('media_ui.signature.pad') : t('media_ui.signature.result')}
        data-testid="signature-canvas"
      />
      {error && (
        <p className="media-errors" role="alert">
          {error}
        </p>
      )}
      <div className="media-actions">
        {mode === 'draw' && (
          <button type="button" className="media-button" disabled={drawn === 0} onClick={undo}>
            {t('media_ui.signature.undo')}
          </button>
        )}
        <button type="button" className="media-button" disabled={!hasContent} onClick={clear}>
          {t('media_ui.signature.clear')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!hasContent || saving}
          onClick={() => void save()}
          data-testid="signature-save"
        >
          {t('media_ui.signature.save')}
        </button>
      </div>
    </Dialog>
  )
}
