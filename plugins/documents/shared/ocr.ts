/** OCR of library files (issue 20): routes, modes, per-page results and what a screen shows of a run. */

/** skip: pages that have text are left as they are (the default); redo: OCR again over an earlier OCR
 * layer; force: every page rasterized and OCR'd, text or not. */
export const OCR_MODES = ['skip', 'redo', 'force'] as const
export type OcrMode = (typeof OCR_MODES)[number]

/**
 * One page's result (spec 001 §3 details). skip: the page had text (born digital), not OCR'd; ocr: text
 * recognized; scan: OCR ran and found no text (a picture, a blank page); without_internet: the OCR engine
 * could not be reached on the node that ran the job (retried); bad_response: the engine failed or timed
 * out on that page (the page is kept as it was); internal_error: the document could not be read
 * (corrupt or encrypted; the document is left untouched).
 */
export const OCR_PAGE_STATES = ['skip', 'ocr', 'scan', 'without_internet', 'bad_response', 'internal_error'] as const
export type OcrPageState = (typeof OCR_PAGE_STATES)[number]
export type OcrDetails = Record<OcrPageState, number>

export type OcrRunState = 'queued' | 'running' | 'done' | 'failed'

/** The type badge of a document (spec 001 §2): OCR'd, born digital, or anything else. */
export type OcrSubType = 'ocr' | 'digital' | 'other'

/** Files the OCR takes: PDFs and the image types of the issue. */
export const OCR_MIMES = ['application/pdf', 'image/jpeg', 'image/png', 'image/tiff'] as const

export interface OcrRun {
  id: number
  file_id: number
  version: number
  mode: OcrMode
  state: OcrRunState
  pages: number | null
  pages_done: number
  details: OcrDetails
  /** The file's type badge as it stands now. */
  sub_type: OcrSubType
  /** Whether a searchable PDF of this version can be downloaded (OCR_ROUTES.pdf). */
  searchable: boolean
  error: string | null
  updated_at: string
}

/** What the `documents_ocr` socket event carries to the file's owner as pages finish. */
export interface OcrProgress {
  file_id: number
  run_id: number
  state: OcrRunState
  pages: number | null
  pages_done: number
}

export const OCR_SOCKET_EVENT = 'documents_ocr'

export const OCR_ROUTES = {
  /** mode (skip | redo | force; default skip) → OcrRun: the current version queued for OCR (the run
   * already queued or running for it, if any). Needs 'all' on the file. */
  start: { method: 'POST', path: '/api/documents/files/:id/ocr' },
  /** → OcrRun | null: the latest run of the current version. */
  status: { method: 'GET', path: '/api/documents/files/:id/ocr' },
  /** version (absent: current) → the searchable PDF a finished run made. */
  pdf: { method: 'GET', path: '/api/documents/files/:id/ocr/pdf' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string }>

export type OcrRouteName = keyof typeof OCR_ROUTES
