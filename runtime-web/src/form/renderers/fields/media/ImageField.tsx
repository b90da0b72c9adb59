/**
 * The `image` field (spec 000 §3, §5): one picture, uploaded (image MIME types only) or taken with the
 * camera dialog (data.source), shown 180 px high by default with data.contain and data.position;
 * configControl: rotate (quarter turns, re-uploaded), resize (allowed by default: large photos are
 * scaled down before upload), circle (shown round). The QR / barcode variant (data.code) draws the
 * code of its text and keeps the field's value in step with it. Value: the upload entry or ''.
 */
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { checkFileUpload } from '@tramita/contract'
import type { FieldProps, UploadedFile } from '../../../types.js'
import { CameraDialog } from './CameraDialog.js'
import { CodeImage } from './CodeImage.js'
import { canvasPng, rotateImage, shrinkImage } from './imageCanvas.js'
import { refusalMessage } from './media_rules.js'
import { useFilledText } from './useFilledText.js'
import { useUploader } from './useUploader.js'
import { UploadStatus } from './UploadStatus.js'
import './media.css'
import { StoredImage } from '../../../StoredFile.js'

/** Wait after the code's text last changed before uploading its picture (typing in a field it names). */
const CODE_UPLOAD_DELAY_MS = 800

type Value = UploadedFile | ''

const POSITIONS: Record<string, string> = { left: 'left center', center: 'center', right: 'right center' }

export function ImageField(props: FieldProps<Value>) {
  const { item, value, onChange, onEvent, readOnly, disabled, inputId, services } = props
  const { t } = useTranslation()
  const entry = value && typeof value === 'object' && value.path ? value : null
  const uploader = useUploader(services, 'images', item.field_name)
  const input = useRef<HTMLInputElement>(null)
  const [camera, setCamera] = useState(false)
  const [busy, setBusy] = useState(false)
  const editable = !readOnly && !disabled
  const data = item.data
  const control = data.configControl ?? { rotate: false, resize: true, circle: false }
  const source: string = data.source ?? 'upload'
  const code = data.code?.enabled ? data.code : null
  const label = data.label.value || item.field_name

  /** Puts a new picture in the value, dropping the one it replaces. */
  function replaceWith(next: UploadedFile | '') {
    if (entry) uploader.discard(entry.path)
    onChange(next)
    onEvent('on_change')
  }

  async function take(file: File | undefined) {
    if (!file || !editable) return
    const check = checkFileUpload({ name: file.name, mime: file.type }, { limit: -1, count: 0, imagesOnly: true })
    if (!check.ok) {
      const { key, vars } = refusalMessage(check.reason, file.name, [])
      uploader.setErrors([t(key, vars)])
      return
    }
    uploader.setErrors([])
    const prepared = control.resize === false ? file : await shrinkImage(file).catch(() => file)
    const uploaded = await uploader.upload(prepared)
    if (uploaded) replaceWith(uploaded)
  }

  async function rotate(clockwise: boolean) {
    if (!entry) return
    setBusy(true)
    try {
      const turned = await rotateImage(await services.fileSrc(entry.path), entry.real_name, clockwise)
      const uploaded = await uploader.upload(turned)
      if (uploaded) replaceWith(uploaded)
    } catch (error) {
      uploader.setErrors([t('media_ui.image.rotate_failed')])
      console.error('rotate failed', error)
    } finally {
      setBusy(false)
    }
  }

  const box: CSSProperties = { height: data.height }
  const picture: CSSProperties = {
    objectFit: data.contain === false || control.circle ? 'cover' : 'contain',
    objectPosition: POSITIONS[data.position] ?? 'center',
  }

  if (code) {
    return (
      <CodeField
        {...props}
        entry={entry}
        label={label}
        replaceWith={replaceWith}
        upload={uploader.upload}
        uploadStatus={<UploadStatus uploader={uploader} />}
      />
    )
  }

  return (
    <div className={`media-image${disabled ? ' media--disabled' : ''}`} data-testid="image-field">
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        disabled={!editable}
        data-testid="image-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          event.currentTarget.value = ''
          void take(file)
        }}
      />
      {entry ? (
        <div
          className={`media-image__box${control.circle ? ' media-image__box--circle' : ''}`}
          style={{
            ...box,
            justifyContent: data.position === 'left' ? 'flex-start' : data.position === 'right' ? 'flex-end' : 'center',
          }}
        >
          <button
            type="button"
            id={inputId}
            className="media-image__open"
            style={control.circle ? { width: data.height, height: data.height } : { width: '100%', height: '100%' }}
            aria-label={t('media_ui.open', { file: entry.real_name })}
            onClick={() => services.preview({ path: entry.path, real_name: entry.real_name })}
            onFocus={() => onEvent('on_focus')}
            onBlur={() => onEvent('on_blur')}
          >
            <StoredImage services={services} path={entry.path} alt={label} style={picture} />
          </button>
        </div>
      ) : (
        <div
          className="media-image__empty"
          style={box}
          id={editable ? undefined : inputId}
          tabIndex={editable ? undefined : -1}
        >
          {!editable && <span className="media-empty">{t('media_ui.image.none')}</span>}
        </div>
      )}
      <UploadStatus uploader={uploader} />
      {editable && (
        <div className="media-actions">
          {source !== 'camera' && (
            <button
              type="button"
              id={entry ? undefined : inputId}
              className="media-button"
              onClick={() => input.current?.click()}
              onFocus={() => onEvent('on_focus')}
              onBlur={() => onEvent('on_blur')}
            >
              {entry ? t('media_ui.image.replace') : t('media_ui.image.upload')}
            </button>
          )}
          {source !== 'upload' && (
            <button
              type="button"
              id={entry || source === 'both' ? undefined : inputId}
              className="media-button"
              onClick={() => setCamera(true)}
            >
              {t('media_ui.image.camera')}
            </button>
          )}
          {entry && control.rotate && (
            <>
              <button
                type="button"
                className="media-icon-button"
                disabled={busy}
                aria-label={t('media_ui.image.rotate_left')}
                title={t('media_ui.image.rotate_left')}
                onClick={() => void rotate(false)}
              >
                ⟲
              </button>
              <button
                type="button"
                className="media-icon-button"
                disabled={busy}
                aria-label={t('media_ui.image.rotate_right')}
                title={t('media_ui.image.rotate_right')}
                onClick={() => void rotate(true)}
              >
                ⟳
              </button>
            </>
          )}
          {entry && (
            <button
              type="button"
              className="media-link-button media-link-button--danger"
              onClick={() => replaceWith('')}
            >
              {t('media_ui.remove')}
            </button>
          )}
        </div>
      )}
      {camera && <CameraDialog onSave={(photo) => take(photo)} onClose={() => setCamera(false)} />}
    </div>
  )
}

interface CodeProps extends FieldProps<Value> {
  entry: UploadedFile | null
  label: string
  replaceWith(next: UploadedFile | ''): void
  upload(file: File): Promise<UploadedFile | null>
  uploadStatus: ReactNode
}

/**
 * The QR / barcode variant. data.code.source is the text to encode, with ${field} placeholders filled
 * live; running it as a script is the create_bar_code_qr action's work (action-engine issue). While the
 * field is editable, the drawn code is uploaded as PNG a moment after its text changes, so the value
 * (what documents and the required rule read) is the picture shown.
 */
function CodeField({
  item,
  entry,
  label,
  readOnly,
  disabled,
  inputId,
  services,
  replaceWith,
  upload,
  uploadStatus,
}: CodeProps) {
  const code = item.data.code
  const text = useFilledText(code.source).trim()
  const canvas = useRef<HTMLCanvasElement | null>(null)
  const editable = !readOnly && !disabled
  // The text the stored picture encodes: on opening a saved case it is the one shown, so nothing is re-uploaded.
  const encoded = useRef<string | null>(entry ? text : null)
  const latest = useRef({ replaceWith, upload, entry })
  latest.current = { replaceWith, upload, entry }

  useEffect(() => {
    if (!editable || text === encoded.current) return
    const timer = setTimeout(async () => {
      encoded.current = text
      if (!text || !canvas.current || canvas.current.hidden) {
        if (latest.current.entry) latest.current.replaceWith('')
        return
      }
      const png = await canvasPng(canvas.current, `${item.field_name}.png`)
      const uploaded = await latest.current.upload(png)
      if (uploaded && encoded.current === text) latest.current.replaceWith(uploaded)
    }, CODE_UPLOAD_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, editable, item.field_name])

  // A read-only case shows the saved picture when there is one (what was sent), else the live code.
  const showSaved = readOnly && entry
  return (
    <div
      className={`media-image${disabled ? ' media--disabled' : ''}`}
      id={inputId}
      tabIndex={-1}
      data-testid="image-code"
    >
      {showSaved ? (
        <div className="media-image__box" style={{ height: item.data.height }}>
          <StoredImage
            services={services}
            path={entry.path}
            alt={label}
            style={{ objectFit: 'contain', height: '100%' }}
          />
        </div>
      ) : (
        <CodeImage
          canvas={canvas}
          spec={{ kind: code.kind, format: code.format }}
          text={text}
          height={item.data.height}
          label={label}
        />
      )}
      {uploadStatus}
    </div>
  )
}
