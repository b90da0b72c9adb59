import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import type { OcrMode, OcrPageState } from '../../shared/ocr.js'

/**
 * The OCR engine: OCRmyPDF (Tesseract underneath) run on a batch of pages, or on one page or image,
 * each page's result read apart, and pdftotext for the text of pages that already had it. Every
 * run has a time limit and is killed past it; nothing is parsed on the event loop.
 */

/** The engine's flag for each mode. */
const MODE_FLAG: Record<OcrMode, string> = { skip: '--skip-text', redo: '--redo-ocr', force: '--force-ocr' }

/** One page of OCR at 300 dpi takes seconds; a page past this is given up as bad_response. */
export const PAGE_TIMEOUT_MS = 180_000
const TEXT_TIMEOUT_MS = 30_000

export interface PageResult {
  state: Extract<OcrPageState, 'skip' | 'ocr' | 'scan' | 'without_internet' | 'bad_response'>
  text: string
  /** The engine's output PDF (ocr and scan pages): the page with its text layer. */
  output: string | null
}

interface Ran {
  code: number | null
  /** The program is not installed on this node. */
  missing: boolean
  timedOut: boolean
  stdout: string
}

function run(program: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      {
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        signal,
        encoding: 'utf8',
        // Pages run side by side, one process each: Tesseract's own threads would only fight over the cores.
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      },
      (error, stdout) => {
        const failure = error as { code?: number | string; killed?: boolean; signal?: string | null } | null
        resolve({
          code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          missing: failure?.code === 'ENOENT',
          timedOut: Boolean(failure?.killed) && failure?.signal === 'SIGKILL',
          stdout: stdout ?? '',
        })
      }
    )
  })
}

/** OCRmyPDF's exit codes this code tells apart (its documented ExitCode values). */
const EXIT = { ok: 0, priorOcrFound: 6, missingDependency: 3 }

function engineArgs(
  input: string,
  files: { output: string; sidecar: string },
  opts: { mode: OcrMode; image: boolean; languages: string }
): string[] {
  return [
    '-l',
    opts.languages,
    MODE_FLAG[opts.mode],
    '--output-type',
    'pdf',
    '--optimize',
    '0',
    '--jobs',
    '1',
    '--quiet',
    '--sidecar',
    files.sidecar,
    // Used only when an image does not say its resolution.
    ...(opts.image ? ['--image-dpi', '300'] : []),
    input,
    files.output,
  ]
}

/** OCRmyPDF writes this marker instead of text for a page it skipped. */
const SKIPPED = /^\[OCR skipped on page/

/**
 * OCRs one page PDF (or one JPEG/PNG/TIFF image) into `output`, its text into `sidecar`. A page the
 * mode leaves alone (skip and text already there) is `skip` with the text it had.
 */
export async function ocrPage(
  input: string,
  files: { output: string; sidecar: string },
  opts: { mode: OcrMode; image: boolean; languages: string; signal?: AbortSignal }
): Promise<PageResult> {
  const ran = await run('ocrmypdf', engineArgs(input, files, opts), PAGE_TIMEOUT_MS, opts.signal)
  if (ran.missing || ran.code === EXIT.missingDependency) return { state: 'without_internet', text: '', output: null }
  if (ran.code === EXIT.priorOcrFound) return { state: 'skip', text: await pageText(input), output: null }
  if (ran.code !== EXIT.ok) return { state: 'bad_response', text: '', output: null }
  const sidecar = await readFile(files.sidecar, 'utf8').catch(() => '')
  if (SKIPPED.test(sidecar.trim())) return { state: 'skip', text: await pageText(input), output: null }
  const text = sidecar.replace(/\f/g, '\n').trim()
  return { state: text ? 'ocr' : 'scan', text, output: files.output }
}

/**
 * OCRs a PDF of several pages in one engine run, paying its start-up once (most of a page's cost on
 * a small scan): `pageFiles` are the same pages one per file, for the text of a page the mode skips.
 * Answers each page's state and text (the pages' outputs are `files.output`, for the caller to split),
 * `missing` when the engine is not installed, or null when the run failed: a bad page fails its
 * whole batch, so the caller then tries the batch's pages one by one and each gets its own state.
 */
export async function ocrBatch(
  input: string,
  pageFiles: string[],
  files: { output: string; sidecar: string },
  opts: { mode: OcrMode; languages: string; signal?: AbortSignal }
): Promise<Omit<PageResult, 'output'>[] | 'missing' | null> {
  const limit = PAGE_TIMEOUT_MS * pageFiles.length
  const ran = await run('ocrmypdf', engineArgs(input, files, { ...opts, image: false }), limit, opts.signal)
  if (ran.missing || ran.code === EXIT.missingDependency) return 'missing'
  if (ran.code !== EXIT.ok) return null
  // One text per page, separated by form feeds.
  const texts = (await readFile(files.sidecar, 'utf8').catch(() => '')).split('\f')
  if (texts.length < pageFiles.length) return null
  const results: Omit<PageResult, 'output'>[] = []
  for (const [i, pageFile] of pageFiles.entries()) {
    const text = texts[i]!.trim()
    if (SKIPPED.test(text)) results.push({ state: 'skip', text: await pageText(pageFile) })
    else results.push({ state: text ? 'ocr' : 'scan', text })
  }
  return results
}

/**
 * OCRs a whole file in one engine run (a scan arriving from a device: a page or a few): each page's text
 * as the sidecar gives it (OCRmyPDF's skip marker for a page that had text), `missing` when the engine
 * is not installed, or null when it failed on the file.
 */
export async function ocrWhole(
  input: string,
  files: { output: string; sidecar: string },
  opts: { image: boolean; languages: string; signal?: AbortSignal }
): Promise<{ texts: string[] } | 'missing' | null> {
  const ran = await run('ocrmypdf', engineArgs(input, files, { ...opts, mode: 'skip' }), PAGE_TIMEOUT_MS, opts.signal)
  if (ran.missing || ran.code === EXIT.missingDependency) return 'missing'
  if (ran.code !== EXIT.ok) return null
  const texts = (await readFile(files.sidecar, 'utf8').catch(() => '')).split('\f')
  // The sidecar ends with a form feed after the last page.
  if (texts.length > 1 && texts[texts.length - 1]!.trim() === '') texts.pop()
  return { texts: texts.map((text) => (SKIPPED.test(text.trim()) ? SKIP_MARK : text.trim())) }
}

/** What ocrWhole answers for a page the engine left alone (it had text). */
export const SKIP_MARK = '\u0000skip'

/** The text a PDF page already has (born-digital pages); empty when none or unreadable. */
export async function pageText(input: string): Promise<string> {
  const ran = await run('pdftotext', ['-q', '-enc', 'UTF-8', input, '-'], TEXT_TIMEOUT_MS)
  return ran.code === 0 ? ran.stdout.replace(/\f/g, '\n').trim() : ''
}
