/**
 * The `signature` field (spec 000 §3, §4): empty, it offers a Sign button that opens the signature
 * dialog; signed, it shows the picture (200 px high by default) with "signed on DATE from IP"
 * (the contract's signatureText) and the device, removable while editable. The picture is uploaded
 * to the signatures folder as PNG. Value: {path, date, ip, device} or ''.
 */
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { signatureText, type SignatureValue } from '@tramita/contract'
import type { Static } from '@sinclair/typebox'
import type { FieldProps } from '../../../types.js'
import { signatureDate } from './media_rules.js'
import { useUploader } from './useUploader.js'
import { UploadStatus } from './UploadStatus.js'
import './media.css'
import { StoredImage } from '../../../StoredFile.js'

// The dialog (and signature_pad) loads when someone signs, not with every form.
const SignatureDialog = lazy(() => import('./SignatureDialog.js').then((m) => ({ default: m.SignatureDialog })))

type Signature = Static<typeof SignatureValue>
type Value = Signature | ''

/** The device a signature was made on: the form's device class and the browser's platform. */
function deviceDescription(device: string): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  const platform = nav.userAgentData?.platform || nav.platform || ''
  return platform ? `${device} · ${platform}` : device
}

export function SignatureField({
  item,
  value,
  onChange,
  onEvent,
  readOnly,
  disabled,
  inputId,
  device,
  services,
}: FieldProps<Value>) {
  const { t, i18n } = useTranslation()
  const [open, setOpen] = useState(false)
  const uploader = useUploader(services, 'signatures', item.field_name)
  const signed = value && typeof value === 'object' && value.path ? value : null
  const editable = !readOnly && !disabled
  const height = item.data.height

  async function save(png: File) {
    const entry = await uploader.upload(png)
    // The uploader shows why it failed; the dialog stays open so the drawing is not lost.
    if (!entry) throw new Error(t('media_ui.signature.not_saved'))
    if (signed) uploader.discard(signed.path)
    onChange({ path: entry.path, date: signatureDate(new Date()), ip: entry.ip, device: deviceDescription(device) })
    onEvent('on_change')
    setOpen(false)
  }

  function remove() {
    if (!signed) return
    uploader.discard(signed.path)
    onChange('')
    onEvent('on_change')
  }

  return (
    <div
      className={`media-signature${disabled ? ' media--disabled' : ''}`}
      data-testid="signature-field"
      data-signed={Boolean(signed)}
    >
      {signed ? (
        <figure className="media-signature__signed">
          <button
            type="button"
            id={inputId}
            className="media-signature__picture"
            style={{ height }}
            aria-label={t('media_ui.open', { file: t('media_ui.signature.file') })}
            onClick={() => services.preview({ path: signed.path, real_name: t('media_ui.signature.file') })}
            onFocus={() => onEvent('on_focus')}
            onBlur={() => onEvent('on_blur')}
          >
            <StoredImage
              services={services}
              path={signed.path}
              alt={item.data.label.value || t('media_ui.signature.file')}
            />
          </button>
          <figcaption>
            <span data-testid="signature-text">{signatureText(signed, { lang: i18n.language })}</span>
            {signed.device && (
              <span className="media-hint">{t('media_ui.signature.device', { device: signed.device })}</span>
            )}
            {editable && (
              <button type="button" className="media-link-button media-link-button--danger" onClick={remove}>
                {t('media_ui.remove')}
              </button>
            )}
          </figcaption>
        </figure>
      ) : editable ? (
        <div className="media-signature__empty" style={{ minHeight: Math.min(height, 90) }}>
          <button
            type="button"
            id={inputId}
            className="button"
            // The field's label also names this button; its own word stays in the name (label in name).
            aria-label={item.data.label.value ? `${t('form.sign')}: ${item.data.label.value}` : undefined}
            onClick={() => setOpen(true)}
            onFocus={() => onEvent('on_focus')}
            onBlur={() => onEvent('on_blur')}
          >
            {t('form.sign')}
          </button>
        </div>
      ) : (
        <p className="media-empty" id={inputId} tabIndex={-1}>
          {signatureText('', { lang: i18n.language })}
        </p>
      )}
      <UploadStatus uploader={uploader} />
      {open && (
        <Suspense fallback={<p className="muted">{t('media_ui.signature.loading')}</p>}>
          <SignatureDialog
            height={height}
            field={item.field_name}
            form={services.formKey}
            onSave={save}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  )
}
