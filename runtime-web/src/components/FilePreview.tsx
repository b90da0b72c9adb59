/**
 * The draggable file preview (spec 000 §2 "Dialogs", 001 §2 "Document viewer"): a non-modal panel with
 * the file name, download and close; images, video and audio are shown by the browser, PDF (pdf.js),
 * text and code (with search) and 3D models (three.js) by viewers that each load as a chunk of their
 * own on first use; any other type, or a file a viewer cannot read, gets the no-preview text with a
 * download button. The header drags it with the pointer; its grip
 * moves it with the arrow keys (Shift for bigger steps); Escape closes it and focus goes back.
 * While it is dragged the content is hidden and comes back 500 ms after the drag ends (spec 000 §9
 * "drag-hide delay"): an iframe or video would otherwise repaint on every move. The loader hides 200 ms
 * after the file has loaded (spec 000 §9).
 *
 * Shared by the form screen (services.preview) and the consultation page: it does what
 * components/consult/FilePreview does (same props, same moveWithin rule) and adds video, audio and
 * other files, so that one can become a re-export of this.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type LazyExoticComponent,
  type PointerEvent,
} from 'react'
import { useTranslation } from 'react-i18next'
import { moveWithin, type Offset } from '../lib/consultation.js'
import { fileKindOf, type FileKind } from '../lib/preview.js'
import type { ViewerProps } from './viewers/types.js'
import '../form/renderers/fields/media/media.css'

// pdf.js, the text search and three.js weigh far more than the panel: each comes with its first file.
const VIEWERS: Partial<Record<FileKind, LazyExoticComponent<ComponentType<ViewerProps>>>> = {
  pdf: lazy(() => import('./viewers/PdfViewer.js')),
  text: lazy(() => import('./viewers/TextViewer.js')),
  model: lazy(() => import('./viewers/ModelViewer.js')),
}

/** The loader stays this long after the file has loaded (spec 000 §9). */
export const LOADER_HIDE_MS = 200
/** The content comes back this long after a drag ends (spec 000 §9). */
export const DRAG_HIDE_MS = 500
/** Arrow keys move the panel by this much (ten times with Shift). */
const KEY_STEP_PX = 16

export interface PreviewFile {
  name: string
  url: string
  /** Found from the name (or the URL) when not given; the consultation's null means "other". */
  kind?: FileKind | null
}

export function FilePreview({ file, onClose }: { file: PreviewFile; onClose: () => void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const closeButton = useRef<HTMLButtonElement>(null)
  const pointer = useRef<{ id: number; x: number; y: number } | null>(null)
  const reveal = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 })
  const [dragging, setDragging] = useState(false)
  const kind: FileKind = file.kind ?? (fileKindOf(file.name) !== 'other' ? fileKindOf(file.name) : fileKindOf(file.url))
  const [loading, setLoading] = useState(kind !== 'other')
  // A viewer that cannot read the file hands it back: the panel offers the download instead.
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    closeButton.current?.focus()
    return () => {
      clearTimeout(reveal.current)
      before?.focus?.()
    }
  }, [])

  // Stable: the viewers load their file in effects that depend on these.
  const loaded = useCallback(() => {
    setTimeout(() => setLoading(false), LOADER_HIDE_MS)
  }, [])
  const unreadable = useCallback(() => {
    setFailed(true)
    setLoading(false)
  }, [])
  const Viewer = failed ? undefined : VIEWERS[kind]

  function moveBy(x: number, y: number) {
    const box = panel.current?.getBoundingClientRect()
    if (!box) return
    const viewport = { width: window.innerWidth, height: window.innerHeight }
    setOffset((current) => moveWithin(current, { x, y }, box, viewport))
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    // Buttons and links in the header keep their clicks (the grip is the keyboard's handle, and drags too).
    if (event.button !== 0 || (event.target as HTMLElement).closest('button:not(.file-preview__grip), a')) return
    event.currentTarget.setPointerCapture(event.pointerId)
    pointer.current = { id: event.pointerId, x: event.clientX, y: event.clientY }
    clearTimeout(reveal.current)
    setDragging(true)
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const last = pointer.current
    if (!last || last.id !== event.pointerId) return
    pointer.current = { ...last, x: event.clientX, y: event.clientY }
    moveBy(event.clientX - last.x, event.clientY - last.y)
  }

  function endDrag() {
    if (!pointer.current) return
    pointer.current = null
    clearTimeout(reveal.current)
    reveal.current = setTimeout(() => setDragging(false), DRAG_HIDE_MS)
  }

  function onGripKey(event: KeyboardEvent<HTMLButtonElement>) {
    const step = event.shiftKey ? KEY_STEP_PX * 10 : KEY_STEP_PX
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    }
    const move = moves[event.key]
    if (!move) return
    event.preventDefault()
    moveBy(...move)
  }

  const download = (
    <a className="file-preview__action" href={file.url} download={file.name}>
      {t('document.download')}
    </a>
  )
  return (
    <div
      ref={panel}
      className="file-preview"
      role="dialog"
      aria-labelledby={titleId}
      data-testid="file-preview"
      data-kind={kind}
      style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose()
      }}
    >
      <div
        className="file-preview__header"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <button
          type="button"
          className="file-preview__grip"
          aria-label={t('media_ui.preview.move')}
          title={t('media_ui.preview.move')}
          onKeyDown={onGripKey}
        >
          ⠿
        </button>
        <span id={titleId} className="file-preview__name" title={file.name}>
          {file.name}
        </span>
        {download}
        <button
          ref={closeButton}
          type="button"
          className="file-preview__action"
          aria-label={t('media_ui.close')}
          title={t('media_ui.close')}
          onClick={onClose}
        >
          ×
        </button>
      </div>
      <div className="file-preview__body" aria-busy={loading} data-dragging={dragging || undefined}>
        {loading && (
          <span className="file-preview__loader" role="progressbar" aria-label={t('media_ui.preview.loading')} />
        )}
        {kind === 'image' && <img src={file.url} alt={file.name} onLoad={loaded} onError={loaded} />}
        {Viewer && (
          <Suspense fallback={null}>
            <Viewer url={file.url} name={file.name} onReady={loaded} onFail={unreadable} />
          </Suspense>
        )}
        {kind === 'video' && <video src={file.url} controls onLoadedMetadata={loaded} onError={loaded} />}
        {kind === 'audio' && <audio src={file.url} controls onLoadedMetadata={loaded} onError={loaded} />}
        {(kind === 'other' || failed) && (
          <div className="file-preview__none">
            {/* Spec 001 §8: a PDF pdf.js cannot read is a display error (not a PDF, or corrupt). */}
            <p className="muted">{t(failed && kind === 'pdf' ? 'document.display_error' : 'document.no_preview')}</p>
            <a className="button" href={file.url} download={file.name}>
              {t('document.download')}
            </a>
          </div>
        )}
      </div>
    </div>
  )
}
