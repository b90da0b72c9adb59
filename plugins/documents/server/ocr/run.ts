import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import type { PluginContext, PluginDb } from '@tramita/plugin-api'
import { runBounded } from '@tramita/plugin-api/workers'
import { OCR_SOCKET_EVENT, type OcrPageState, type OcrProgress, type OcrRunState } from '../../shared/ocr.js'
import { documentsSettings } from '../library/usage.js'
import { indexText } from '../search/text.js'
import { ocrBatch, ocrPage, type PageResult } from './engine.js'
import type { PagesAnswer, PagesTask } from './pages_worker.js'

export type OcrDeps = Pick<PluginContext, 'db' | 'storage' | 'usage' | 'sockets' | 'logger' | 'settings'> & {
  /** Told each step besides the owner's socket (the CLI's progress bar). */
  onProgress?: (progress: OcrProgress) => void
}

/** Inputs past these are not OCR'd (the run fails with the reason): checked before anything is parsed. */
export const OCR_LIMITS = { maxBytes: 256 * 1024 ** 2, maxPages: 2000, bodyChars: 4_000_000 }
const WORKER_LIMITS = { heapMb: 1024, timeoutMs: 10 * 60_000 }
const PAGES_WORKER = new URL('./pages_worker.ts', import.meta.url)

/** Billed once per document, version and page (billing reads it: documents.ocr_page). */
export const OCR_USAGE_METRIC = 'documents.ocr_page'

/** States a retry does not redo: only a page the engine could not be reached for is tried again. */
const FINAL: ReadonlySet<OcrPageState> = new Set(['skip', 'ocr', 'scan', 'bad_response', 'internal_error'])

interface RunRow {
  id: number
  file_id: number
  version: number
  mode: 'skip' | 'redo' | 'force'
  state: OcrRunState
  pages: number | null
}

interface PageRow {
  page: number
  state: OcrPageState
  text: string | null
  storage_key: string | null
}

/**
 * Engine runs of one OCR run at once (the ocrWorkers setting; 0: one per core, at most 8). Tesseract
 * itself is held to one thread. One more than the cores was slower: a 20-page 300 dpi scan on two cores
 * took 37 s in three processes against 31 s in two (batches of four, ocrmypdf alone, one run each).
 */
function concurrency(setting = 0): number {
  return setting > 0 ? setting : Math.min(8, availableParallelism())
}

/**
 * Runs one OCR run (the `documents:ocr` job): the pages not yet done are OCR'd in small batches (one
 * engine run each) and each page's result written as its batch finishes, so a second run of the job (a retry, a dead worker) picks up where the first
 * stopped and never OCRs a finished page again. Then the pages are joined into the version's searchable
 * PDF, their text goes into the search, and the file gets its type badge. Throws only to be retried (the
 * engine could not be reached, `lastAttempt` false).
 */
export async function runOcr(
  deps: OcrDeps,
  runId: number,
  opts: { signal: AbortSignal; lastAttempt: boolean; onProgress?: (progress: OcrProgress) => void }
): Promise<OcrRunState | 'gone'> {
  if (opts.onProgress) deps = { ...deps, onProgress: opts.onProgress }
  const { db } = deps
  const run = (await db.table('ocr_runs').where('id', runId).first()) as RunRow | null
  if (!run) return 'gone'
  if (run.state === 'done' || run.state === 'failed') return run.state
  const file = await db.table('files').select('id', 'owner_id', 'current_version').where('id', run.file_id).first()
  const version = await db
    .table('versions')
    .select('mime', 'size', 'storage_key')
    .where('file_id', run.file_id)
    .where('number', run.version)
    .first()
  if (!file || !version) return finishFailed(deps, run, null, 'gone')
  const current = Number(file.current_version) === Number(run.version)
  await db.table('ocr_runs').where('id', run.id).update({ state: 'running', updated_at: new Date() })
  if (current) await db.table('files').where('id', run.file_id).update({ ocr_state: 'running' })
  await progress(deps, Number(file.owner_id), { ...run, state: 'running' })

  if (Number(version.size) > OCR_LIMITS.maxBytes) return finishFailed(deps, run, file, 'too_large')
  const image = String(version.mime).startsWith('image/')
  const { ocrLanguages: languages, ocrWorkers } = await documentsSettings(deps.settings)
  const workers = concurrency(ocrWorkers)
  const dir = await mkdtemp(join(tmpdir(), 'tramita-ocr-'))
  try {
    const outcome = await deps.storage.withLocalFile(String(version.storage_key), async (path) => {
      let pages = 1
      if (!image) {
        const split = await pagesWorker({ task: 'split', input: path, dir, pages: 'all' })
        if ('error' in split) {
          // Corrupt or encrypted: the document is left as it is, the run says why.
          await savePage(db, run.id, 1, 'internal_error', '', null)
          return 'unreadable' as const
        }
        pages = split.pages
        if (pages > OCR_LIMITS.maxPages) return 'too_many_pages' as const
      }
      await db.table('ocr_runs').where('id', run.id).update({ pages, updated_at: new Date() })
      const known = await pageRows(db, run.id)
      const finished = (n: number) => {
        const row = known.get(n)
        return row !== undefined && FINAL.has(row.state)
      }
      const pending = Array.from({ length: pages }, (_, i) => i + 1).filter((n) => !finished(n))
      const batches = image ? [pending] : batchesOf(pending, workers)
      const several = batches.filter((batch) => batch.length > 1)
      if (several.length > 0) {
        const grouped = await pagesWorker({ task: 'split', input: path, dir, pages: [], groups: several })
        // Without the batch files each page goes on its own (as a retry after a batch failure does).
        if ('error' in grouped) batches.splice(0, batches.length, ...pending.map((n) => [n]))
      }
      const owner = Number(file.owner_id)
      const record = async (number: number, result: PageResult) => {
        await keepPage(deps, run.id, number, result)
        const done = await finalCount(db, run.id)
        await db.table('ocr_runs').where('id', run.id).update({ pages_done: done, updated_at: new Date() })
        await progress(deps, owner, { ...run, state: 'running', pages, pages_done: done })
      }
      const onePage = (number: number) =>
        ocrPage(
          image ? path : join(dir, `p-${number}.pdf`),
          { output: join(dir, `o-${number}.pdf`), sidecar: join(dir, `t-${number}.txt`) },
          { mode: run.mode, image, languages, signal: opts.signal }
        )
      let next = 0
      const worker = async () => {
        while (next < batches.length && !opts.signal.aborted) {
          const batch = batches[next++]!
          const results = batch.length > 1 ? await ocrBatchOf(batch, dir, run.mode, languages, opts.signal) : null
          for (const number of batch) {
            if (opts.signal.aborted) break
            // A page cut short by the stop is not a result: the next run does it.
            const result = results?.get(number) ?? (await onePage(number))
            if (opts.signal.aborted) break
            await record(number, result)
          }
        }
      }
      await Promise.all(Array.from({ length: Math.min(workers, batches.length) }, worker))
      if (opts.signal.aborted) throw new Error('The OCR run was stopped; it goes on where it was')
      return { pages, rows: await pageRows(db, run.id), source: path }
    })
    if (outcome === 'unreadable') return finishFailed(deps, run, file, 'internal_error')
    if (outcome === 'too_many_pages') return finishFailed(deps, run, file, 'too_many_pages')
    const unreachable = [...outcome.rows.values()].some((row) => row.state === 'without_internet')
    if (unreachable && !opts.lastAttempt) throw new Error('The OCR engine (ocrmypdf) is not available on this node')
    return await finish(deps, run, file, { ...outcome, image, dir })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Pages one engine run OCRs together at most: its start-up paid once, a failed batch redone page by page. */
const MAX_BATCH = 10

/**
 * The pending pages in batches of about equal size, as many as a multiple of the workers (each ends its
 * last batch about when the others do; five batches on two workers left one idle for the fifth) and
 * none larger than MAX_BATCH (a crash loses at most one batch's work).
 */
export function batchesOf(pending: number[], workers: number): number[][] {
  if (pending.length === 0) return []
  const count = Math.min(pending.length, workers * Math.ceil(pending.length / (workers * MAX_BATCH)))
  // Sizes differ by one at most: 21 pages in four batches are 6, 5, 5 and 5.
  const base = Math.floor(pending.length / count)
  const larger = pending.length % count
  const batches: number[][] = []
  let start = 0
  for (let i = 0; i < count; i++) {
    const size = base + (i < larger ? 1 : 0)
    batches.push(pending.slice(start, start + size))
    start += size
  }
  return batches
}

/**
 * One engine run over a batch's PDF (`g-<first>.pdf`) and its output split back into page files
 * (`o-<n>.pdf`): each page's result, or null when the batch failed (its pages then go one by one).
 */
async function ocrBatchOf(
  batch: number[],
  dir: string,
  mode: RunRow['mode'],
  languages: string,
  signal: AbortSignal
): Promise<Map<number, PageResult> | null> {
  const first = batch[0]!
  const output = join(dir, `ob-${first}.pdf`)
  const pageFiles = batch.map((n) => join(dir, `p-${n}.pdf`))
  const sidecar = join(dir, `tb-${first}.txt`)
  const results = await ocrBatch(
    join(dir, `g-${first}.pdf`),
    pageFiles,
    { output, sidecar },
    { mode, languages, signal }
  )
  if (results === 'missing') {
    return new Map(batch.map((n) => [n, { state: 'without_internet', text: '', output: null }]))
  }
  if (!results) return null
  const split = await pagesWorker({ task: 'split', input: output, dir, pages: 'all', prefix: 'o', names: batch })
  if ('error' in split || split.pages !== batch.length) return null
  return new Map(
    batch.map((n, i) => {
      const result = results[i]!
      const made = result.state === 'ocr' || result.state === 'scan'
      return [n, { ...result, output: made ? join(dir, `o-${n}.pdf`) : null }]
    })
  )
}

/** Stores a page's result; its engine output is kept in storage until the run joins the pages. */
async function keepPage(deps: OcrDeps, runId: number, page: number, result: PageResult): Promise<void> {
  const key = result.output ? (await deps.storage.put(fileChunks(result.output), 'pdf')).key : null
  let saved = false
  try {
    saved = await savePage(deps.db, runId, page, result.state, result.text, key)
  } finally {
    // Another run of the same job wrote this page first (its copy is kept), or the file went meanwhile.
    if (!saved && key) await deps.storage.delete(key)
  }
}

/** Writes a page's row, replacing only a without_internet one; false when a final row was already there. */
async function savePage(
  db: PluginDb,
  runId: number,
  page: number,
  state: OcrPageState,
  text: string,
  key: string | null
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await trx
      .table('ocr_pages')
      .select('state')
      .where('run_id', runId)
      .where('page', page)
      .forUpdate()
      .first()
    const values = { state, text, storage_key: key, created_at: new Date() }
    if (row && FINAL.has(row.state)) return false
    if (row) await trx.table('ocr_pages').where('run_id', runId).where('page', page).update(values)
    else await trx.table('ocr_pages').insert({ run_id: runId, page, ...values })
    return true
  })
}

async function pageRows(db: PluginDb, runId: number): Promise<Map<number, PageRow>> {
  const rows = (await db
    .table('ocr_pages')
    .select('page', 'state', 'text', 'storage_key')
    .where('run_id', runId)
    .orderBy('page')) as PageRow[]
  return new Map(rows.map((row) => [Number(row.page), row]))
}

async function finalCount(db: PluginDb, runId: number): Promise<number> {
  const row = await db
    .table('ocr_pages')
    .where('run_id', runId)
    .whereIn('state', [...FINAL])
    .count('page', 'n')
    .first()
  return Number(row?.n ?? 0)
}

/**
 * Joins the pages (the engine's output where it made one, the original page elsewhere) into the searchable
 * PDF; the OCR'd pages are billed (once each); then in one transaction the version gets the PDF and, when the
 * version is still the file's current one, the file gets its badge, page count and OCR state, and the search
 * its text.
 */
async function finish(
  deps: OcrDeps,
  run: RunRow,
  file: { id: number; owner_id: number; current_version: number },
  done: { pages: number; rows: Map<number, PageRow>; source: string; image: boolean; dir: string }
): Promise<OcrRunState> {
  const { db, storage } = deps
  const rows = [...done.rows.values()]
  let searchable: { key: string; size: number } | null = null
  if (rows.some((row) => row.storage_key)) {
    const inputs: string[] = []
    for (let page = 1; page <= done.pages; page++) {
      const key = done.rows.get(page)?.storage_key
      if (key) {
        const local = join(done.dir, `s-${page}.pdf`)
        await pipeline(Readable.from(await storage.read(key)), createWriteStream(local))
        inputs.push(local)
      } else if (!done.image) inputs.push(join(done.dir, `p-${page}.pdf`))
    }
    const output = join(done.dir, 'searchable.pdf')
    const joined = await pagesWorker({ task: 'join', inputs, output })
    if ('error' in joined) return finishFailed(deps, run, file, 'bad_response')
    const stored = await storage.put(fileChunks(output), 'pdf')
    searchable = { key: stored.key, size: stored.size }
  }
  const states = rows.map((row) => row.state)
  const ok = states.length === done.pages && states.every((s) => s === 'skip' || s === 'ocr' || s === 'scan')
  const subType = states.includes('ocr')
    ? 'ocr'
    : states.length > 0 && states.every((s) => s === 'skip')
      ? 'digital'
      : 'other'
  const text = rows
    .map((row) => row.text ?? '')
    .filter(Boolean)
    .join('\n')
    .slice(0, OCR_LIMITS.bodyChars)
  const state: OcrRunState = ok ? 'done' : 'failed'
  // Billed before the run reads as done: the pages were OCR'd whatever happens next (once per key).
  for (const row of rows) {
    if (row.state === 'ocr' || row.state === 'scan') {
      await deps.usage.record(OCR_USAGE_METRIC, `doc:${file.id}:v${run.version}:p${row.page}`, 1, {
        userId: Number(file.owner_id),
      })
    }
  }
  const replaced = await db.transaction(async (trx) => {
    const locked = await trx.table('files').select('current_version').where('id', file.id).forUpdate().first()
    const version = await trx
      .table('versions')
      .select('ocr_key')
      .where('file_id', file.id)
      .where('number', run.version)
      .first()
    if (!locked || !version) return searchable?.key ?? null
    if (searchable) {
      await trx
        .table('versions')
        .where('file_id', file.id)
        .where('number', run.version)
        .update({ ocr_key: searchable.key, ocr_size: searchable.size, ocr_run_id: run.id })
    }
    if (Number(locked.current_version) === Number(run.version)) {
      await trx
        .table('files')
        .where('id', file.id)
        .update({ ocr_state: state, sub_type: subType, pages: done.image ? 1 : done.pages })
      const key = trx.dialect === 'mysql' ? 'file_id' : 'rowid'
      await trx.raw(`UPDATE documents_search SET body = ? WHERE ${key} = ?`, [indexText(text), file.id])
    }
    await trx.table('ocr_pages').where('run_id', run.id).update({ storage_key: null })
    await trx
      .table('ocr_runs')
      .where('id', run.id)
      .update({
        state,
        pages: done.pages,
        pages_done: rows.length,
        error: ok ? null : 'pages_failed',
        updated_at: new Date(),
      })
    return searchable ? (version.ocr_key as string | null) : null
  })
  // After the commit: the page copies and a searchable PDF this one replaced are no longer named by any row.
  for (const row of rows) if (row.storage_key) await storage.delete(row.storage_key)
  if (replaced && replaced !== searchable?.key) await storage.delete(replaced)
  await progress(deps, Number(file.owner_id), { ...run, state, pages: done.pages, pages_done: rows.length })
  return state
}

/** Ends a run that could not OCR the document: the document itself is left as it was. */
async function finishFailed(
  deps: OcrDeps,
  run: RunRow,
  file: { id: number; owner_id: number; current_version: number } | null,
  reason: string
): Promise<OcrRunState> {
  await deps.db.transaction(async (trx) => {
    await trx.table('ocr_runs').where('id', run.id).update({ state: 'failed', error: reason, updated_at: new Date() })
    if (file && Number(file.current_version) === Number(run.version)) {
      await trx.table('files').where('id', file.id).update({ ocr_state: 'failed', sub_type: 'other' })
    }
  })
  if (file) await progress(deps, Number(file.owner_id), { ...run, state: 'failed' })
  deps.logger.warn(`documents: OCR run ${run.id} of file ${run.file_id} failed (${reason})`)
  return 'failed'
}

async function progress(deps: OcrDeps, ownerId: number, run: RunRow & { pages_done?: number }): Promise<void> {
  const data: OcrProgress = {
    file_id: Number(run.file_id),
    run_id: Number(run.id),
    state: run.state,
    pages: run.pages === null ? null : Number(run.pages),
    pages_done: run.pages_done ?? 0,
  }
  deps.onProgress?.(data)
  // Progress is a courtesy: a socket outage never fails the run.
  await deps.sockets.publish({ userId: ownerId }, { case: OCR_SOCKET_EVENT, data }).catch(() => undefined)
}

async function pagesWorker(task: PagesTask): Promise<PagesAnswer> {
  try {
    return await runBounded<PagesAnswer>(PAGES_WORKER, task, WORKER_LIMITS)
  } catch {
    return { error: 'unreadable' }
  }
}

async function* fileChunks(path: string): AsyncIterable<Uint8Array> {
  for await (const chunk of createReadStream(path)) yield chunk as Uint8Array
}
