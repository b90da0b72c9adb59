import { readFile, writeFile } from 'node:fs/promises'
import { parentPort, workerData } from 'node:worker_threads'
import { EncryptedPDFError, PDFDocument } from 'pdf-lib'
import { limitDecodedStreams } from '@tramita/plugin-api/pdf-limits'

/** Throws when a stream of a loaded PDF decoded past its limits (@tramita/plugin-api/pdf-limits). */
const withinDecodeLimits = limitDecodedStreams()

/**
 * pdf-lib work of an OCR run, in a worker thread (run.ts starts it with limits):
 * - split: writes the pages asked for as one-page PDFs `<prefix>-<n>.pdf` in `dir` (prefix `p`; `names`
 *   numbers them in place of their page numbers: a batch's output, page i named as the page it was) and
 *   each of `groups` as one PDF `g-<first>.pdf` of those pages (a batch the engine OCRs in one run);
 *   answers the page count, or `encrypted` / `unreadable`;
 * - join: joins one-page PDFs, in order, into `output`; answers the page count, or `unreadable` with the
 *   index of the first input it cannot read.
 */
export type PagesTask =
  | {
      task: 'split'
      input: string
      dir: string
      pages: number[] | 'all'
      prefix?: string
      names?: number[]
      groups?: number[][]
    }
  | { task: 'join'; inputs: string[]; output: string }

export type PagesAnswer = { pages: number } | { error: 'encrypted' | 'unreadable'; index?: number }

async function split(job: Extract<PagesTask, { task: 'split' }>): Promise<PagesAnswer> {
  const { input, dir, pages: wanted } = job
  let doc: PDFDocument
  try {
    doc = await PDFDocument.load(await readFile(input), { updateMetadata: false })
    withinDecodeLimits()
  } catch (error) {
    return { error: error instanceof EncryptedPDFError ? 'encrypted' : 'unreadable' }
  }
  const count = doc.getPageCount()
  const pages = wanted === 'all' ? doc.getPageIndices().map((i) => i + 1) : wanted.filter((n) => n <= count)
  for (const [index, number] of pages.entries()) {
    const one = await PDFDocument.create()
    const [page] = await one.copyPages(doc, [number - 1])
    one.addPage(page!)
    await writeFile(`${dir}/${job.prefix ?? 'p'}-${job.names?.[index] ?? number}.pdf`, await one.save())
  }
  for (const group of job.groups ?? []) {
    const several = await PDFDocument.create()
    for (const page of await several.copyPages(
      doc,
      group.filter((n) => n <= count).map((n) => n - 1)
    )) {
      several.addPage(page)
    }
    await writeFile(`${dir}/g-${group[0]}.pdf`, await several.save())
  }
  return { pages: count }
}

async function join(inputs: string[], output: string): Promise<PagesAnswer> {
  const out = await PDFDocument.create()
  for (const [index, path] of inputs.entries()) {
    let doc: PDFDocument
    try {
      doc = await PDFDocument.load(await readFile(path), { updateMetadata: false })
      withinDecodeLimits()
    } catch {
      return { error: 'unreadable', index }
    }
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page)
  }
  await writeFile(output, await out.save())
  return { pages: out.getPageCount() }
}

const job = workerData as PagesTask
const answer = job.task === 'split' ? split(job) : join(job.inputs, job.output)
void answer.then(
  (result) => parentPort!.postMessage(result),
  () => parentPort!.postMessage({ error: 'unreadable' } satisfies PagesAnswer)
)
