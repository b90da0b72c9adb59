/**
 * The ID card scan dialog (spec 000 §2, 001 §2): size normal or enlarged (150 %), the first and the
 * second face, each from an upload, the camera or a scanner (when an enabled plugin brings devices:
 * FaceScanner.tsx); each face is stored by cardim_preview and shown at the card's printed size; Save (enabled only when both faces
 * exist) joins them into one PDF with cardim_full and hands its file entry to the field. Success and
 * failure are the spec's toasts ('scan_IDcard_success', 'scan_IDcard_error'). Loaded lazily with its
 * texts (texts.ts): a form pays for it only when someone opens it.
 */
import { Suspense, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { toasts } from '@tramita/web/toasts'
import { CameraDialog } from '../renderers/fields/media/CameraDialog.js'
import { StoredImage } from '../StoredFile.js'
import { FaceScanner, useScanners } from './FaceScanner.js'
import type { RuntimeServices, UploadedFile } from '../types.js'
import {
  canSaveIdCard,
  FACE_ACCEPT,
  FACE_SIDES,
  idCardCalls,
  initialIdCard,
  previewSize,
  type FaceSide,
  type IdCardState,
} from './idcard.js'
import { useIdCardTexts } from './texts.js'
import './idcard.css'

export interface IdCardDialogProps {
  field: string
  services: RuntimeServices
  /** Receives the joined PDF's entry; the dialog closes once it resolves. */
  onSave(entry: UploadedFile): void | Promise<void>
  onClose(): void
}

function Body({ field, services, onSave, onClose }: IdCardDialogProps) {
  const t = useIdCardTexts()
  const calls = useRef(idCardCalls(services.endpoint!, field)).current
  const [state, setState] = useState<IdCardState>(initialIdCard)
  const [busy, setBusy] = useState<FaceSide | 'save' | null>(null)
  const [camera, setCamera] = useState<FaceSide | null>(null)
  const inputs = useRef<Partial<Record<FaceSide, HTMLInputElement | null>>>({})
  const scanners = useScanners(field, services.formKey)
  const size = previewSize(state)
  const scanning = scanners?.scanning != null

  async function take(side: FaceSide, file: Blob, name: string) {
    setBusy(side)
    try {
      const face = await calls.preview(side, file, name, state.enlarged)
      setState((now) => ({ ...now, faces: { ...now.faces, [side]: face } }))
    } catch (error) {
      console.error('ID card face not stored', error)
      toasts.error(t('scan_IDcard_error'))
    } finally {
      setBusy(null)
    }
  }

  /** A face from the scanner: stored as an upload is; a failure shows the server's message (spec 001 §8). */
  async function scan(side: FaceSide) {
    let file: File | null
    try {
      file = await scanners!.scan(side)
    } catch (error) {
      console.error('ID card face not scanned', error)
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      const message = error instanceof Error && !timedOut ? error.message : ''
      toasts.error(timedOut ? t('idcard.scan_timeout') : message || t('scan_IDcard_error'))
      return
    }
    if (file) await take(side, file, file.name)
  }

  async function save() {
    if (!canSaveIdCard(state)) return
    setBusy('save')
    try {
      const entry = await calls.full(state)
      await onSave(entry)
      toasts.success(t('scan_IDcard_success'))
      onClose()
    } catch (error) {
      console.error('ID card not joined', error)
      toasts.error(t('scan_IDcard_error'))
    } finally {
      setBusy(null)
    }
  }

  if (camera) {
    return <CameraDialog onSave={(photo) => take(camera, photo, photo.name)} onClose={() => setCamera(null)} />
  }
  return (
    <Dialog title={t('idcard.title')} onClose={onClose} testId="idcard-dialog">
      <fieldset className="idcard-size">
        <legend>{t('idcard.size')}</legend>
        {([false, true] as const).map((enlarged) => (
          <label key={String(enlarged)}>
            <input
              type="radio"
              name="idcard-size"
              checked={state.enlarged === enlarged}
              onChange={() => setState((now) => ({ ...now, enlarged }))}
              data-testid={enlarged ? 'idcard-enlarged' : 'idcard-normal'}
            />
            {t(enlarged ? 'idcard.enlarged' : 'idcard.normal')}
          </label>
        ))}
      </fieldset>
      <div className="idcard-faces">
        {FACE_SIDES.map((side) => {
          const face = state.faces[side]
          const label = t(`idcard.${side}`)
          return (
            <section key={side} className="idcard-face" data-testid={`idcard-${side}`} aria-label={label}>
              <h3>{label}</h3>
              <div
                className="idcard-face__card"
                style={{ width: `${size.width}mm`, height: `${size.height}mm` }}
                aria-busy={busy === side || scanners?.scanning === side || undefined}
              >
                {busy === side || scanners?.scanning === side ? (
                  <span className="muted">{t('idcard.loading')}</span>
                ) : !face ? (
                  <span className="muted">{t('idcard.missing')}</span>
                ) : face.ext === 'pdf' ? (
                  <span>{t('idcard.pdf_face', { name: face.real_name })}</span>
                ) : (
                  <StoredImage
                    services={services}
                    path={face.path}
                    alt={t('idcard.face_of', { face: label, name: face.real_name })}
                  />
                )}
              </div>
              <div className="media-actions">
                <input
                  ref={(input) => void (inputs.current[side] = input)}
                  type="file"
                  accept={FACE_ACCEPT}
                  hidden
                  data-testid={`idcard-${side}-input`}
                  onChange={(event) => {
                    const file = event.currentTarget.files?.[0]
                    event.currentTarget.value = ''
                    if (file) void take(side, file, file.name)
                  }}
                />
                <button
                  type="button"
                  className="media-button"
                  disabled={busy !== null || scanning}
                  onClick={() => inputs.current[side]?.click()}
                >
                  {face ? t('idcard.replace') : t('idcard.upload')}
                </button>
                <button
                  type="button"
                  className="media-button"
                  disabled={busy !== null || scanning}
                  onClick={() => setCamera(side)}
                >
                  {t('idcard.camera')}
                </button>
              </div>
              {scanners && (
                <FaceScanner
                  side={side}
                  scanners={scanners}
                  disabled={busy !== null || scanning}
                  t={t}
                  onScan={(s) => void scan(s)}
                />
              )}
            </section>
          )
        })}
      </div>
      <div className="media-actions">
        <button type="button" className="media-button" onClick={onClose}>
          {t('idcard.cancel')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!canSaveIdCard(state) || busy !== null || scanning}
          title={canSaveIdCard(state) ? undefined : t('idcard.both_needed')}
          onClick={() => void save()}
          data-testid="idcard-save"
        >
          {t('idcard.save')}
        </button>
      </div>
    </Dialog>
  )
}

export default function IdCardDialog(props: IdCardDialogProps) {
  const { t } = useTranslation()
  return (
    <Suspense fallback={<p className="muted">{t('app.loading', { defaultValue: '…' })}</p>}>
      <Body {...props} />
    </Suspense>
  )
}
