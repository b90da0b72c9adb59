/**
 * The signature dialog's "Load from a device" mode (spec 000 §2 signpro, §7 signing flow), drawn only
 * when an enabled plugin brings devices (form_devices.ts): the person signs in an external signing app
 * (signpro: the template's and the upload's addresses are shown to give it) or on the signing pad of a
 * machine they may use; the dialog waits, cancellable, and hands the received picture back as an
 * uploaded one.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FormDeviceMachine, SignatureRequest } from '@tramita/plugin-api/web'
import { formDevicesEnabled, loadFormDevices } from '../../../form_devices.js'

/** The external signing app (no machine): signpro mode. */
const APP = ''

interface Props {
  field: string
  form: string
  onPicture(file: File): void
}

/** Whether the dialog can offer devices for a form's field. */
export function signatureDevicesFor(form: string | undefined): form is string {
  return formDevicesEnabled && Boolean(form)
}

const absolute = (path: string) => new URL(path, globalThis.location.href).href

export function SignatureDevice({ field, form, onPicture }: Props) {
  const { t } = useTranslation()
  const [machines, setMachines] = useState<FormDeviceMachine[] | null>(null)
  const [source, setSource] = useState(APP)
  const [request, setRequest] = useState<SignatureRequest | null>(null)
  const [error, setError] = useState('')
  const [starting, setStarting] = useState(false)
  const running = useRef<AbortController | null>(null)
  const sourceId = useId()
  const uploadId = useId()

  useEffect(() => {
    let live = true
    loadFormDevices()!
      .then((devices) => devices.machines())
      .then(
        // Only pads (a provider that does not say offers every machine: the server refuses one without).
        (all) => live && setMachines(all.filter((m) => m.canSign !== false)),
        // Without the list the signing app still works.
        () => live && setMachines([])
      )
    return () => {
      live = false
      running.current?.abort()
    }
  }, [])

  async function start() {
    running.current?.abort()
    const controller = new AbortController()
    running.current = controller
    setError('')
    setStarting(true)
    try {
      const devices = await loadFormDevices()!
      const opened = await devices.signature({
        field,
        form,
        machine: source || undefined,
        signal: controller.signal,
      })
      setRequest(opened)
      setStarting(false)
      const file = await opened.done
      if (controller.signal.aborted) return
      setRequest(null)
      onPicture(file)
    } catch (failure) {
      if (controller.signal.aborted) return
      setRequest(null)
      const timedOut = failure instanceof Error && failure.name === 'TimeoutError'
      setError(
        timedOut ? t('media_ui.signature.remote.timeout') : failure instanceof Error ? failure.message : String(failure)
      )
    } finally {
      setStarting(false)
      if (running.current === controller) running.current = null
    }
  }

  function cancel() {
    running.current?.abort()
    running.current = null
    setRequest(null)
  }

  return (
    <div className="media-signature-device" data-testid="signature-device">
      <p className="media-hint">{t('media_ui.signature.remote.lead')}</p>
      {!request && (
        <div className="media-field-row">
          <label htmlFor={sourceId}>{t('media_ui.signature.remote.source')}</label>
          <select
            id={sourceId}
            value={source}
            disabled={starting}
            onChange={(event) => setSource(event.currentTarget.value)}
            data-testid="signature-device-source"
          >
            <option value={APP}>{t('media_ui.signature.remote.app')}</option>
            {(machines ?? []).map((m) => (
              <option key={m.token} value={m.token}>
                {t('media_ui.signature.remote.pad', { name: m.name })}
              </option>
            ))}
          </select>
        </div>
      )}
      {request && !source && (
        <div className="media-signature-device__app">
          <p>{t('media_ui.signature.remote.app_help')}</p>
          <p>
            <a href={request.template} target="_blank" rel="noopener noreferrer" data-testid="signature-template">
              {t('media_ui.signature.remote.template')}
            </a>
          </p>
          <label className="media-field-row" htmlFor={uploadId}>
            <span>{t('media_ui.signature.remote.upload')}</span>
            <input
              id={uploadId}
              readOnly
              value={absolute(request.upload)}
              onFocus={(event) => event.currentTarget.select()}
              data-testid="signature-upload-address"
            />
          </label>
        </div>
      )}
      {request ? (
        <div className="media-actions" role="status">
          <span>{t(source ? 'media_ui.signature.remote.waiting_pad' : 'media_ui.signature.remote.waiting')}</span>
          <button type="button" className="media-button" onClick={cancel} data-testid="signature-device-cancel">
            {t('media_ui.signature.remote.cancel')}
          </button>
        </div>
      ) : (
        <div className="media-actions">
          <button
            type="button"
            className="media-button"
            disabled={starting || machines === null}
            onClick={() => void start()}
            data-testid="signature-device-start"
          >
            {t('media_ui.signature.remote.start')}
          </button>
        </div>
      )}
      {error && (
        <p className="media-errors" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
