import { execFile } from 'node:child_process'
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { SIGNATURE_AREA, TEMPLATE_PAGE } from './template.js'

const run = promisify(execFile)

/** The page is drawn at twice its size in points (144 dpi on letter): a sharp signature, a small PNG. */
const SCALE = 2
const RENDER_TIMEOUT_MS = 20_000

export class NotAPdf extends Error {}

/** A PDF starts with `%PDF-` (readers allow a little junk before it: within the first KiB). */
export async function looksLikePdf(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(1024)
    const { bytesRead } = await file.read(head, 0, head.length, 0)
    return head.subarray(0, bytesRead).includes('%PDF-')
  } finally {
    await file.close()
  }
}

/**
 * The signature area of the PDF's first page as a PNG in the folder `dir` (its path answered): pdftoppm in a child process with a time limit, the page scaled to the template's size
 * so the box is where the template put it. A file poppler cannot read throws NotAPdf.
 */
export async function renderSignatureBox(pdf: string, dir: string): Promise<string> {
  const into = join(dir, 'firma')
  const box = SIGNATURE_AREA
  const args = [
    ...['-f', '1', '-l', '1', '-png', '-singlefile'],
    ...['-scale-to-x', String(TEMPLATE_PAGE.width * SCALE), '-scale-to-y', String(TEMPLATE_PAGE.height * SCALE)],
    // The crop is in the scaled page's pixels, from its top left (PDF's origin is the bottom left).
    ...['-x', String(box.x * SCALE), '-y', String((TEMPLATE_PAGE.height - box.y - box.height) * SCALE)],
    ...['-W', String(box.width * SCALE), '-H', String(box.height * SCALE)],
    pdf,
    into,
  ]
  try {
    await run('pdftoppm', args, { timeout: RENDER_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 })
  } catch (error) {
    const why = (error as { stderr?: string; message?: string }).stderr || (error as Error).message
    throw new NotAPdf(String(why).slice(0, 300))
  }
  const png = `${into}.png`
  // pdftoppm may end well and write nothing (a PDF without pages).
  const head = await readFile(png).catch(() => null)
  if (!head || head.length < 8 || head.readUInt32BE(0) !== 0x89504e47) throw new NotAPdf('no page rendered')
  return png
}
