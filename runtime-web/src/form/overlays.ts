/**
 * What opens over the form (spec 000 §2): a modal showing a URL in an iframe or pages of the form,
 * and the download-progress panel listing generated files with their finish status. Actions (open_modal,
 * close_modal, create_doc, downloads) drive these through the form store's `overlays`.
 */
export type Modal =
  | { type: 'url'; url: string; title?: string }
  /** `page`: an index in form.pages or a page's name (sections included). */
  | { type: 'pages'; page: number | string; title?: string }

export type DownloadStatus = 'running' | 'done' | 'failed'

export interface Download {
  id: number
  name: string
  status: DownloadStatus
}

/** The spec's delay before a modal shows (000 §9: "Modal opens after 100 ms"). */
export const MODAL_DELAY_MS = 100

/** A finished download's entry leaves the panel after this (001 §2, §9: "removed 2000 ms after finish"). */
export const DOWNLOAD_LINGER_MS = 2000

/** The timers the overlays use; tests pass a hand-driven clock. */
export interface OverlayTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realTimers: OverlayTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

type Listener = () => void
/** A component drawn over the form by code loaded later (the actions' layer); a type import only. */
type Layer = import('react').ComponentType

export class Overlays {
  private modalNow: Modal | null = null
  private downloadsNow: readonly Download[] = []
  private nextId = 1
  private timer: unknown
  private readonly listeners = new Set<Listener>()

  constructor(private readonly timers: OverlayTimers = realTimers) {}

  subscribe = (listener: Listener) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  modal = (): Modal | null => this.modalNow
  layer = (): Layer | null => this.layerNow
  private layerNow: Layer | null = null

  setLayer(layer: Layer | null) {
    this.layerNow = layer
    this.emit()
  }
  downloads = (): readonly Download[] => this.downloadsNow

  /** Opens after MODAL_DELAY_MS, replacing any modal open now. */
  openModal(modal: Modal, delay = MODAL_DELAY_MS) {
    this.timers.clearTimeout(this.timer)
    this.timer = this.timers.setTimeout(() => {
      this.modalNow = modal
      this.emit()
    }, delay)
  }

  closeModal() {
    this.timers.clearTimeout(this.timer)
    if (this.modalNow === null) return
    this.modalNow = null
    this.emit()
  }

  /**
   * Lists a file being produced until `work` settles; its entry then says done or failed, and leaves
   * the panel DOWNLOAD_LINGER_MS later (or at once when dismissed).
   */
  async track<T>(name: string, work: Promise<T>): Promise<T> {
    const id = this.nextId++
    this.downloadsNow = [...this.downloadsNow, { id, name, status: 'running' }]
    this.emit()
    const settle = (status: DownloadStatus) => {
      this.downloadsNow = this.downloadsNow.map((d) => (d.id === id ? { ...d, status } : d))
      this.emit()
      this.timers.setTimeout(() => this.dismissDownload(id), DOWNLOAD_LINGER_MS)
    }
    try {
      const result = await work
      settle('done')
      return result
    } catch (error) {
      settle('failed')
      throw error
    }
  }

  dismissDownload(id: number) {
    if (!this.downloadsNow.some((d) => d.id === id)) return
    this.downloadsNow = this.downloadsNow.filter((d) => d.id !== id)
    this.emit()
  }

  private emit() {
    for (const listener of this.listeners) listener()
  }
}
