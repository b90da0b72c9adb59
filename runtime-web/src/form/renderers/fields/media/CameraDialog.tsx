/**
 * The camera dialog (spec 000 §2, §4; 001 §4): choose a source, open or close it, take a photo, retake,
 * save as JPEG (quality 0.9, timestamped name). States: closed → open → photo taken → saved and closed;
 * saving works only with a photo. The chosen camera is remembered in localStorage. With no camera the
 * dialog says so ('No se detectaron cámaras'); camera errors are only logged (spec 000 §8).
 * Used by image fields with a camera source; exported for the take_photo action.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { canvasJpeg } from './imageCanvas.js'
import { photoFileName } from './media_rules.js'
import './media.css'

/** localStorage key of the chosen camera's deviceId. */
export const CAMERA_STORAGE_KEY = 'tramita.camera'

type Phase = 'closed' | 'open' | 'taken'

function remembered(): string | null {
  try {
    return globalThis.localStorage?.getItem(CAMERA_STORAGE_KEY) ?? null
  } catch {
    return null
  }
}

function remember(deviceId: string) {
  try {
    globalThis.localStorage?.setItem(CAMERA_STORAGE_KEY, deviceId)
  } catch {
    // No storage (private mode): the choice lasts this dialog only.
  }
}

async function videoInputs(): Promise<MediaDeviceInfo[]> {
  const devices = (await navigator.mediaDevices?.enumerateDevices?.()) ?? []
  return devices.filter((d) => d.kind === 'videoinput')
}

interface Props {
  /** Receives the photo; the dialog closes once it resolves. */
  onSave(photo: File): void | Promise<void>
  onClose(): void
}

export function CameraDialog({ onSave, onClose }: Props) {
  const { t } = useTranslation()
  const [cameras, setCameras] = useState<MediaDeviceInfo[] | null>(null)
  const [deviceId, setDeviceId] = useState('')
  const [phase, setPhase] = useState<Phase>('closed')
  const [saving, setSaving] = useState(false)
  // Frames are arriving: only then can a photo be taken (a switch of camera restarts the stream).
  const [live, setLive] = useState(false)
  const video = useRef<HTMLVideoElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const stream = useRef<MediaStream | null>(null)

  function stop() {
    stream.current?.getTracks().forEach((track) => track.stop())
    stream.current = null
    if (video.current) video.current.srcObject = null
    setLive(false)
  }

  useEffect(() => {
    let live = true
    videoInputs()
      .then((found) => {
        if (!live) return
        setCameras(found)
        const saved = remembered()
        setDeviceId(found.find((c) => c.deviceId === saved)?.deviceId ?? found[0]?.deviceId ?? '')
      })
      .catch((error: unknown) => {
        console.error('camera list failed', error)
        if (live) setCameras([])
      })
    return () => {
      live = false
      stop()
    }
  }, [])

  async function open(id = deviceId) {
    stop()
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: id ? { deviceId: { exact: id } } : true,
        audio: false,
      })
      stream.current = media
      if (video.current) {
        video.current.srcObject = media
        await video.current.play().catch(() => {})
      }
      setPhase('open')
      // Labels are empty until the user allowed the camera: list again to show them.
      const found = await videoInputs()
      if (found.length) setCameras(found)
    } catch (error) {
      console.error('camera could not open', error)
      setPhase('closed')
    }
  }

  function close() {
    stop()
    setPhase('closed')
  }

  function choose(id: string) {
    remember(id)
    if (id === deviceId) return
    setDeviceId(id)
    if (phase !== 'closed') void open(id)
  }

  function take() {
    const source = video.current
    const target = canvas.current
    if (!source || !target || !live || !source.videoWidth) return
    target.width = source.videoWidth
    target.height = source.videoHeight
    target.getContext('2d')!.drawImage(source, 0, 0, target.width, target.height)
    setPhase('taken')
  }

  async function save() {
    if (phase !== 'taken' || !canvas.current) return
    setSaving(true)
    try {
      const photo = await canvasJpeg(canvas.current, photoFileName(new Date()))
      await onSave(photo)
      stop()
      onClose()
    } catch (error) {
      console.error('photo not saved', error)
    } finally {
      setSaving(false)
    }
  }

  const none = cameras !== null && cameras.length === 0
  return (
    <Dialog title={t('media_ui.camera.title')} onClose={onClose} testId="camera-dialog">
      {cameras === null && <p className="muted">{t('media_ui.camera.looking')}</p>}
      {none && (
        <p className="notice" role="status" data-testid="no-cameras">
          {t('no_cameras')}
        </p>
      )}
      {cameras !== null && !none && (
        <>
          <label className="media-field-row">
            <span>{t('media_ui.camera.source')}</span>
            <select
              value={deviceId}
              onChange={(event) => choose(event.currentTarget.value)}
              data-testid="camera-source"
            >
              {cameras.map((camera, index) => (
                <option key={camera.deviceId || index} value={camera.deviceId}>
                  {camera.label || t('media_ui.camera.unnamed', { number: index + 1 })}
                </option>
              ))}
            </select>
          </label>
          <div className="media-camera" data-phase={phase}>
            <video
              ref={video}
              playsInline
              muted
              hidden={phase !== 'open'}
              onPlaying={() => setLive(true)}
              aria-label={t('media_ui.camera.live')}
            />
            <canvas ref={canvas} hidden={phase !== 'taken'} role="img" aria-label={t('media_ui.camera.photo')} />
            {phase === 'closed' && <p className="muted">{t('media_ui.camera.closed')}</p>}
          </div>
          <div className="media-actions">
            {phase === 'closed' ? (
              <button type="button" className="button" onClick={() => void open()}>
                {t('media_ui.camera.open')}
              </button>
            ) : (
              <button type="button" className="media-button" onClick={close}>
                {t('media_ui.camera.close')}
              </button>
            )}
            {phase === 'open' && (
              <button type="button" className="button" disabled={!live} onClick={take}>
                {t('media_ui.camera.take')}
              </button>
            )}
            {phase === 'taken' && (
              <button type="button" className="media-button" onClick={() => setPhase('open')}>
                {t('media_ui.camera.retake')}
              </button>
            )}
            <button type="button" className="button" disabled={phase !== 'taken' || saving} onClick={() => void save()}>
              {t('media_ui.camera.save')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  )
}
