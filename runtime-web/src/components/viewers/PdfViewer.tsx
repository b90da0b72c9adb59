/**
 * The PDF viewer of the preview panel: pdf.js renders one page at a time on a canvas, with page
 * navigation and zoom (buttons, and keys on the viewer: PageUp/PageDown, Home/End, + and -).
 * Its worker and data files come from the bundle, never from a CDN. A lazily loaded chunk of its own.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useViewerTexts } from './texts.js'
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { BundledPdfData } from './pdf_assets.js'
import type { ViewerProps } from './types.js'
import './viewers.css'

GlobalWorkerOptions.workerSrc = workerUrl

/** Zoom steps, relative to the page fitted to the panel's width. */
export const PDF_ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const
const FIT = PDF_ZOOMS.indexOf(1)
/** Room left around the page inside the scroll area. */
const GUTTER_PX = 24

export default function PdfViewer({ url, onReady, onFail }: ViewerProps) {
  const t = useViewerTexts()
  const scroller = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null)
  const [page, setPage] = useState(1)
  const [zoom, setZoom] = useState(FIT)
  const [width, setWidth] = useState(0)
  const [rendered, setRendered] = useState(0)
  // pdf.js refuses two renders on one canvas at once: each waits for the one before to stop.
  const running = useRef<Promise<unknown>>(Promise.resolve())

  useEffect(() => {
    const task = getDocument({ url, BinaryDataFactory: BundledPdfData })
    let open = true
    task.promise.then(
      (loaded) => open && setDoc(loaded),
      () => open && onFail()
    )
    return () => {
      open = false
      // Ends the document's worker too.
      void task.destroy()
    }
  }, [url, onFail])

  useEffect(() => {
    const box = scroller.current
    if (!box) return
    const observer = new ResizeObserver(() => setWidth(box.clientWidth))
    observer.observe(box)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const target = canvas.current
    if (!doc || !target || width === 0) return
    let task: RenderTask | null = null
    let live = true
    const previous = running.current
    running.current = (async () => {
      await previous.catch(() => {})
      if (!live) return
      const proxy = await doc.getPage(page)
      const fit = Math.max(width - GUTTER_PX, 100) / proxy.getViewport({ scale: 1 }).width
      const ratio = window.devicePixelRatio || 1
      const viewport = proxy.getViewport({ scale: fit * PDF_ZOOMS[zoom]! * ratio })
      target.width = Math.floor(viewport.width)
      target.height = Math.floor(viewport.height)
      target.style.width = `${Math.floor(viewport.width / ratio)}px`
      target.style.height = `${Math.floor(viewport.height / ratio)}px`
      if (!live) return
      task = proxy.render({ canvas: target, viewport })
      await task.promise
      if (live) {
        setRendered(page)
        onReady()
      }
    })().catch((error: unknown) => {
      if ((error as { name?: string })?.name !== 'RenderingCancelledException' && live) onFail()
    })
    return () => {
      live = false
      task?.cancel()
    }
  }, [doc, page, zoom, width, onReady, onFail])

  const pages = doc?.numPages ?? 0
  const go = (to: number) => setPage(Math.min(Math.max(to, 1), Math.max(pages, 1)))
  const zoomBy = (step: number) => setZoom((z) => Math.min(Math.max(z + step, 0), PDF_ZOOMS.length - 1))

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest('input, textarea, select')) return
    const actions: Record<string, () => void> = {
      PageDown: () => go(page + 1),
      PageUp: () => go(page - 1),
      Home: () => go(1),
      End: () => go(pages),
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
    }
    const action = actions[event.key]
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return
    event.preventDefault()
    action()
  }

  return (
    <div className="viewer" data-testid="pdf-viewer" data-page={page} data-pages={pages} onKeyDown={onKeyDown}>
      <div className="viewer__bar" role="toolbar" aria-orientation="horizontal">
        <button
          type="button"
          aria-label={t('viewers.page_previous')}
          title={t('viewers.page_previous')}
          disabled={page <= 1}
          onClick={() => go(page - 1)}
        >
          ‹
        </button>
        <span className="viewer__count" aria-live="polite" data-testid="pdf-page">
          {pages > 0 ? t('form_runtime.page_of', { page, pages }) : ''}
        </span>
        <button
          type="button"
          aria-label={t('viewers.page_next')}
          title={t('viewers.page_next')}
          disabled={page >= pages}
          onClick={() => go(page + 1)}
        >
          ›
        </button>
        <span className="viewer__gap" />
        <button
          type="button"
          aria-label={t('viewers.zoom_out')}
          title={t('viewers.zoom_out')}
          disabled={zoom === 0}
          onClick={() => zoomBy(-1)}
        >
          −
        </button>
        <span className="viewer__count" aria-live="polite" data-testid="pdf-zoom">
          {Math.round(PDF_ZOOMS[zoom]! * 100)} %
        </span>
        <button
          type="button"
          aria-label={t('viewers.zoom_in')}
          title={t('viewers.zoom_in')}
          disabled={zoom === PDF_ZOOMS.length - 1}
          onClick={() => zoomBy(1)}
        >
          +
        </button>
      </div>
      {/* Focusable so the keys above, and the arrows that scroll a zoomed page, work from the page itself. */}
      <div
        ref={scroller}
        className="viewer__scroll"
        tabIndex={0}
        aria-label={t('form_runtime.page_of', { page, pages })}
      >
        <canvas ref={canvas} className="viewer__page" data-rendered={rendered || undefined} />
      </div>
    </div>
  )
}
