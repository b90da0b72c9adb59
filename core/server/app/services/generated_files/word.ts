import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runBounded, WorkerLimit } from '@tramita/plugin-api/workers'
import { zipProblem } from '#services/uploads/archive'
import { FillError } from './docx_fill.js'
import { TemplateError } from './pdf_template.js'

export { fillDocx } from './docx_fill.js'

/**
 * dev_word_to_pdf (spec 001 §7): a Word template filled with values (docxtemplater, `{name}` tags)
 * and converted to PDF by LibreOffice headless (Debian's libreoffice-writer-nogui). Each conversion
 * gets its own profile directory (two soffice processes sharing one profile block each other) and a
 * time limit; conversions run one at a time per server process (~214 MB each, TOOLCHAIN.md).
 */

/** The soffice binary (SOFFICE_PATH overrides, e.g. for a LibreOffice outside PATH). */
export const sofficePath = () => process.env.SOFFICE_PATH || 'soffice'
const TIMEOUT_MS = Number(process.env.SOFFICE_TIMEOUT_MS) || 60_000

export class WordError extends TemplateError {
  constructor(
    readonly key:
      FillError['key'] | 'too_large' | 'fill_timeout' | 'soffice_missing' | 'soffice_failed' | 'soffice_timeout',
    detail = ''
  ) {
    super(detail)
  }
}

/** A fill's time and heap: a real template fills in well under a second and a few MB. */
const FILL_LIMITS = { timeoutMs: Number(process.env.WORD_FILL_TIMEOUT_MS) || 20_000, heapMb: 256 }

/**
 * fillDocx off the event loop (issue 17: a 58 KB docx that inflated to 20 MB held the server 19 s
 * and 3 GB): the zip is checked against the archive limits first, then filled in a worker thread
 * (@tramita/plugin-api/workers); a fill past its heap or time limit is refused as too large or too slow.
 */
export async function fillDocxBounded(bytes: Buffer, values: Record<string, unknown>): Promise<Buffer> {
  const problem = await zipProblem(bytes, bytes.length)
  if (problem === 'not_archive') throw new WordError('not_docx')
  if (problem) throw new WordError('too_large')
  type Answer = { ok: true; bytes: Uint8Array } | { ok: false; key: FillError['key']; detail: string }
  let answer: Answer
  try {
    answer = await runBounded<Answer>(new URL('./fill_worker.ts', import.meta.url), { bytes, values }, FILL_LIMITS)
  } catch (error) {
    if (!(error instanceof WorkerLimit)) throw error
    if (error.reason === 'timeout') throw new WordError('fill_timeout')
    if (error.reason === 'memory') throw new WordError('too_large')
    throw new WordError('template', error.message)
  }
  if (!answer.ok) throw new WordError(answer.key, answer.detail)
  return Buffer.from(answer.bytes)
}

let queue: Promise<unknown> = Promise.resolve()

/** Runs `work` after every conversion queued before it (whatever their outcome). */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work)
  queue = next.catch(() => undefined)
  return next
}

/** PDF bytes of a .docx, converted by soffice in a temporary directory removed afterwards. */
export function docxToPdf(docx: Uint8Array): Promise<Buffer> {
  return oneAtATime(() => convert(docx))
}

/**
 * dev_word_to_pdf: the template filled (fillDocxBounded) and converted, in one turn of the queue, so
 * one server process holds at most one fill worker and one soffice at a time.
 */
export function templateToPdf(template: Buffer, values: Record<string, unknown>): Promise<Buffer> {
  return oneAtATime(async () => convert(await fillDocxBounded(template, values)))
}

async function convert(docx: Uint8Array): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'tramita-soffice-'))
  try {
    const input = join(dir, 'document.docx')
    await writeFile(input, docx)
    await runSoffice([
      '--headless',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--convert-to',
      'pdf:writer_pdf_Export',
      '--outdir',
      join(dir, 'out'),
      input,
    ])
    try {
      return await readFile(join(dir, 'out', 'document.pdf'))
    } catch {
      throw new WordError('soffice_failed')
    }
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => {})
  }
}

function runSoffice(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its own process group: soffice starts soffice.bin, and a timeout must stop both.
    const child = spawn(sofficePath(), args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, TIMEOUT_MS)
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(new WordError(error.code === 'ENOENT' ? 'soffice_missing' : 'soffice_failed', error.message))
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (timedOut) reject(new WordError('soffice_timeout'))
      else if (code !== 0) reject(new WordError('soffice_failed', stderr.trim()))
      else resolve()
    })
  })
}
