/**
 * What actions show over the form: the progress bar (show_progress_bar, #7f82ff by default), the
 * camera dialog of take_photo and the notice of a barcode reader or RFID capture. Part of the lazily
 * loaded actions chunk; the form store's overlays mount it when the engine loads.
 */
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProgressBar } from '@tramita/plugin-actions/web'
// The camera comes with the media renderers' chunk, on the first take_photo.
const CameraDialog = lazy(() =>
  import('../renderers/fields/media/CameraDialog.js').then((m) => ({ default: m.CameraDialog }))
)
import { loadActionTexts } from './texts.js'
import './actions.css'

interface LayerSnapshot {
  progress: ProgressBar | null
  /** The field a capture fills, while it waits. */
  capture: string | null
  /** take_photo is waiting for the camera dialog. */
  photo: boolean
}

type KeyListener = (key: string) => void

export class ActionLayerState {
  private now: LayerSnapshot = { progress: null, capture: null, photo: false }
  private readonly listeners = new Set<() => void>()
  private readonly keyListeners = new Set<KeyListener>()
  private photoWaiters: ((file: File | null) => void)[] = []

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  snapshot = (): LayerSnapshot => this.now

  set(patch: Partial<LayerSnapshot>) {
    this.now = { ...this.now, ...patch }
    for (const listener of this.listeners) listener()
  }

  /** Opens the camera dialog; resolves its photo, or null when it is closed without one. */
  requestPhoto(): Promise<File | null> {
    this.set({ photo: true })
    return new Promise((resolve) => this.photoWaiters.push(resolve))
  }

  photoTaken(file: File | null) {
    const waiters = this.photoWaiters
    this.photoWaiters = []
    this.set({ photo: false })
    for (const resolve of waiters) resolve(file)
  }

  /**
   * The page's key presses while a capture listens. A reader types as a keyboard does: its keys are
   * kept from the focused control, so they fill the target field only.
   */
  onKey(listener: KeyListener): () => void {
    const onKeyDown = (event: KeyboardEvent) => {
      event.preventDefault()
      event.stopPropagation()
      listener(event.key)
    }
    this.keyListeners.add(listener)
    document.addEventListener('keydown', onKeyDown, true)
    return () => {
      this.keyListeners.delete(listener)
      document.removeEventListener('keydown', onKeyDown, true)
    }
  }

  /** Ends the captures waiting now, as Escape does. */
  cancelCapture() {
    for (const listener of [...this.keyListeners]) listener('Escape')
  }
}

export function ActionLayer({ state }: { state: ActionLayerState }) {
  const { t, i18n } = useTranslation()
  // After a language switch, that language's texts (the first ones came with the engine).
  useEffect(() => void loadActionTexts(i18n), [i18n, i18n.language])
  const { progress, capture, photo } = useSyncExternalStore(state.subscribe, state.snapshot)
  return (
    <>
      {progress && (
        <div className="factions-progress" role="status" data-testid="action-progress">
          <div
            className="factions-progress__bar"
            role="progressbar"
            aria-label={progress.message || t('actions.progress')}
            style={{ background: progress.color }}
          />
          {progress.message && <span className="factions-progress__text">{progress.message}</span>}
        </div>
      )}
      {capture && (
        <div className="factions-capture" role="status" data-testid="action-capture" data-field={capture}>
          <span>{t('actions.capture_waiting')}</span>
          <button type="button" className="button button--ghost" onClick={() => state.cancelCapture()}>
            {t('actions.capture_cancel')}
          </button>
        </div>
      )}
      {photo && (
        <Suspense fallback={null}>
          <CameraDialog onSave={(file) => state.photoTaken(file)} onClose={() => state.photoTaken(null)} />
        </Suspense>
      )}
    </>
  )
}
