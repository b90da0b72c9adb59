import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PDFDocument, StandardFonts } from 'pdf-lib'

const run = promisify(execFile)

/** A born-digital PDF: each page's lines as real text (Helvetica, 20 pt). */
export async function digitalPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const lines of pages) {
    const page = doc.addPage([612, 792])
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 700 - i * 40, size: 20, font }))
  }
  return doc.save()
}

/**
 * A scanned-looking PDF: the digital pages rendered to grey images by Ghostscript (150 dpi unless told),
 * each image alone on a page, so there is no text left to find but what OCR reads back.
 */
export async function scannedPdf(pages: string[][], dpi = 150): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'tramita-scan-'))
  try {
    await writeFile(join(dir, 'digital.pdf'), await digitalPdf(pages))
    await run('gs', [
      '-q',
      '-dNOPAUSE',
      '-dBATCH',
      '-sDEVICE=pnggray',
      `-r${dpi}`,
      `-sOutputFile=${join(dir, 'p-%03d.png')}`,
      join(dir, 'digital.pdf'),
    ])
    const doc = await PDFDocument.create()
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.png')).sort()) {
      const image = await doc.embedPng(await readFile(join(dir, name)))
      doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 })
    }
    return doc.save()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The text of a PDF as pdftotext reads it (what a reader's search box would find in the file). */
export async function textOf(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tramita-text-'))
  try {
    await writeFile(join(dir, 'in.pdf'), bytes)
    return (await run('pdftotext', ['-q', join(dir, 'in.pdf'), '-'])).stdout
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Puts a wrapper named `ocrmypdf` first on the PATH that logs each call's input file and then runs the
 * real engine, so a test can count the pages OCR'd; `missing: true` puts nothing there and hides the
 * real one (the engine not installed); `failBatches: true` makes every run over a batch file (`g-*.pdf`)
 * fail as the engine does on a page it cannot handle. Returns the calls made and a restore().
 */
export async function engineOnPath(opts: { missing?: boolean; failBatches?: boolean; holdAfterFirst?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'tramita-engine-'))
  const log = join(dir, 'calls.log')
  const saved = process.env.PATH
  if (opts.missing) {
    process.env.PATH = dir
  } else {
    const real = (await run('sh', ['-c', 'command -v ocrmypdf'])).stdout.trim()
    const fail = opts.failBatches ? `case "$(basename "$input")" in g-*) exit 2;; esac\n` : ''
    // Every page but the first waits (at most 120 s) until release(): a run can be stopped between them.
    const release = join(dir, 'release')
    const hold = opts.holdAfterFirst
      ? `case "$(basename "$input")" in p-1.pdf) ;; *) n=0; while [ ! -e '${release}' ] && [ $n -lt 2400 ]; do sleep 0.05; n=$((n + 1)); done;; esac\n`
      : ''
    // The input is the argument before the output, the last two of every call run.ts makes.
    await writeFile(
      join(dir, 'ocrmypdf'),
      `#!/bin/sh\neval "input=\\\${$(($# - 1))}"\necho "$input" >> '${log}'\n${fail}${hold}exec '${real}' "$@"\n`
    )
    await chmod(join(dir, 'ocrmypdf'), 0o755)
    process.env.PATH = `${dir}:${saved}`
  }
  return {
    async calls(): Promise<string[]> {
      const text = await readFile(log, 'utf8').catch(() => '')
      return text.split('\n').filter(Boolean)
    },
    /** Lets the held pages run (holdAfterFirst). */
    async release() {
      await writeFile(join(dir, 'release'), '')
    },
    async restore() {
      process.env.PATH = saved
      await rm(dir, { recursive: true, force: true })
    },
  }
}
