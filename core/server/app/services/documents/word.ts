import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Docxtemplater from 'docxtemplater'
import PizZip from 'pizzip'
import { DocumentError } from './pdf_document.js'

/**
 * dev_word_to_pdf (spec 001 §7): a Word template filled with values (docxtemplater, `{name}` tags)
 * and converted to PDF by LibreOffice headless (Debian's libreoffice-writer-nogui). Each conversion
 * gets its own profile directory (two soffice processes sharing one profile block each other) and a
 * time limit; conversions run one at a time per server process (~214 MB each, TOOLCHAIN.md).
 */

/** The soffice binary (SOFFICE_PATH overrides, e.g. for a LibreOffice outside PATH). */
export const sofficePath = () => process.env.SOFFICE_PATH || 'soffice'
const TIMEOUT_MS = Number(process.env.SOFFICE_TIMEOUT_MS) || 60_000

export class WordError extends DocumentError {
  constructor(
    readonly key: 'not_docx' | 'template' | 'soffice_missing' | 'soffice_failed' | 'soffice_timeout',
    detail = ''
  ) {
    super(detail)
  }
}

/** The .docx with its `{tags}` replaced; tags with no value become empty. */
export function fillDocx(bytes: Uint8Array, values: Record<string, unknown>): Buffer {
  let zip: PizZip
  try {
    zip = new PizZip(bytes)
  } catch {
    throw new WordError('not_docx')
  }
  if (!zip.file('word/document.xml')) throw new WordError('not_docx')
  try {
    const doc = new Docxtemplater(zip, {
      paragraphLoop: true,
      linebreaks: true,
      nullGetter: () => '',
      // The caller gets the reason; a bad tag in a user's template is not a server error to log.
      errorLogging: false,
    })
    doc.render(values)
    return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' })
  } catch (error) {
    // docxtemplater's multi-error lists each bad tag; its first explanation is enough for the caller.
    const errors = (error as { properties?: { errors?: { properties?: { explanation?: string } }[] } }).properties
      ?.errors
    const detail = errors?.[0]?.properties?.explanation ?? (error instanceof Error ? error.message : '')
    throw new WordError('template', detail.slice(0, 200))
  }
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
  return oneAtATime(async () => {
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
  })
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
