import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { PDFDocument } from 'pdf-lib'
import db from '@adonisjs/lucid/services/db'
import type { UploadAnswer } from '../../shared/library.js'
import { OCR_ROUTES, type OcrRun } from '../../shared/ocr.js'
import type { SearchAnswer } from '../../shared/operations.js'
import { ocrJobs } from '../../server/ocr/jobs.js'
import { batchesOf } from '../../server/ocr/run.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import {
  assertFail,
  call,
  libraryCounts,
  person,
  resetLibrary,
  settings,
  txt,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'
import { op } from './operations_fixtures.js'
import { digitalPdf, engineOnPath, scannedPdf, textOf } from './ocr_fixtures.js'

const ocrPath = (name: keyof typeof OCR_ROUTES, id: number) => OCR_ROUTES[name].path.replace(':id', String(id))

async function uploadOne(client: Client, who: Person, name: string, bytes: Uint8Array): Promise<number> {
  const response = await uploadFiles(client, who.token, [{ name, bytes }])
  response.assertStatus(200)
  const result = (response.body().data as UploadAnswer).results[0]!
  if (result.status !== 'stored') throw new Error(`not stored: ${JSON.stringify(result)}`)
  return result.file.id
}

async function startOcr(client: Client, who: Person, fileId: number, mode?: string): Promise<OcrRun> {
  const response = await call(client, 'post', ocrPath('start', fileId), who.token, mode ? { mode } : {})
  response.assertStatus(200)
  return response.body().data as OcrRun
}

async function status(client: Client, who: Person, fileId: number): Promise<OcrRun | null> {
  const response = await call(client, 'get', ocrPath('status', fileId), who.token)
  response.assertStatus(200)
  return response.body().data as OcrRun | null
}

async function finished(client: Client, who: Person, fileId: number): Promise<OcrRun> {
  let last: OcrRun | null = null
  await waitUntil(
    async () => {
      last = await status(client, who, fileId)
      return last?.state === 'done' || last?.state === 'failed'
    },
    120_000,
    () => `the OCR run to finish (last: ${JSON.stringify(last)})`
  )
  return last!
}

async function found(client: Client, who: Person, words: string): Promise<string[]> {
  const response = await op(client, who, 'search', { type_search: 'doc', jsonwhere: JSON.stringify({ text: words }) })
  response.assertStatus(200)
  return (response.body().data as SearchAnswer).documents.map((d) => d.name).sort()
}

async function billed(): Promise<string[]> {
  const rows = await db.from('usage_events').where('plugin', 'documents').where('metric', 'ocr_page').orderBy('key')
  return rows.map((row) => String(row.key))
}

/** A run the queue never got (written as queueOcr writes it), for a test to drive with the job itself. */
async function queuedRun(fileId: number): Promise<number> {
  const now = new Date()
  const [runId] = await db.table('documents_ocr_runs').insert({
    file_id: fileId,
    version: 1,
    mode: 'skip',
    state: 'queued',
    pages_done: 0,
    created_at: now,
    updated_at: now,
  })
  return Number(runId)
}

const PAGES = [
  ['Contrato de arrendamiento', 'Expediente numero 4471'],
  ['Resolucion de permiso', 'Licencia municipal'],
]

/** Five pages: scanned, born-digital, scanned, scanned, born-digital. */
async function mixedPdf(): Promise<Uint8Array> {
  const scanned = await PDFDocument.load(await scannedPdf([...PAGES, ['Acta final', 'Firmas']]))
  const digital = await PDFDocument.load(await digitalPdf([['Anexo uno'], ['Anexo dos', 'Presupuesto']]))
  const out = await PDFDocument.create()
  const [s1, s2, s3] = await out.copyPages(scanned, [0, 1, 2])
  const [d1, d2] = await out.copyPages(digital, [0, 1])
  for (const page of [s1!, d1!, s2!, s3!, d2!]) out.addPage(page)
  return out.save()
}

/** What mixedPdf's run leaves: each page's state, the three scans billed, the words of all five found. */
async function assertMixedResult(client: Client, who: Person, fileId: number, assert: Assert): Promise<void> {
  const rows = await db
    .from('documents_ocr_pages')
    .join('documents_ocr_runs', 'documents_ocr_runs.id', 'run_id')
    .where('documents_ocr_runs.file_id', fileId)
    .orderBy('page')
    .select('documents_ocr_pages.page', 'documents_ocr_pages.state')
  assert.deepEqual(
    rows.map((row) => [Number(row.page), row.state]),
    [
      [1, 'ocr'],
      [2, 'skip'],
      [3, 'ocr'],
      [4, 'ocr'],
      [5, 'skip'],
    ]
  )
  assert.deepEqual(await billed(), [`doc:${fileId}:v1:p1`, `doc:${fileId}:v1:p3`, `doc:${fileId}:v1:p4`])
  assert.deepEqual(await found(client, who, 'expediente'), ['mezcla.pdf'])
  assert.deepEqual(await found(client, who, 'firmas'), ['mezcla.pdf'])
  assert.deepEqual(await found(client, who, 'presupuesto'), ['mezcla.pdf'])
  const pdf = await call(client, 'get', ocrPath('pdf', fileId), who.token)
  pdf.assertStatus(200)
  assert.equal((await PDFDocument.load(Buffer.from(pdf.body() as Buffer))).getPageCount(), 5)
}

/**
 * Tesseract's Spanish alone, for the tests about the run (batches, retries, modes, upload): the pages
 * are Spanish, and each further language slows every page (the default adds English and Chinese). The
 * first test OCRs with the default languages.
 */
const ONE_LANGUAGE = 'spa'

/** Issue 20 item 1: OCR with OCRmyPDF and Tesseract, page by page, into search and billing. */
test.group('documents OCR', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
    await db.from('usage_events').where('plugin', 'documents').delete()
  })
  group.each.timeout(180_000)

  test('a scanned PDF becomes searchable: every page OCR’d once, billed once, its words found', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_ocr', 'teacher')
    const fileId = await uploadOne(client, ana, 'escaneo.pdf', await scannedPdf(PAGES))
    assert.deepEqual(await found(client, ana, 'arrendamiento'), [], 'a scan has no text before OCR')

    const queued = await startOcr(client, ana, fileId)
    assert.equal(queued.mode, 'skip')
    const again = await startOcr(client, ana, fileId)
    assert.equal(again.id, queued.id, 'asking twice while it runs is the same run')

    const run = await finished(client, ana, fileId)
    assert.equal(run.state, 'done')
    assert.equal(run.pages, 2)
    assert.deepInclude(run.details, { ocr: 2, skip: 0, scan: 0, bad_response: 0, internal_error: 0 })
    assert.isTrue(run.searchable)
    const file = await db.from('documents_files').where('id', fileId).first()
    assert.include(file, { ocr_state: 'done', sub_type: 'ocr', pages: 2 })

    assert.deepEqual(await found(client, ana, 'arrendamiento'), ['escaneo.pdf'])
    assert.deepEqual(await found(client, ana, 'licencia municipal'), ['escaneo.pdf'])
    const pdf = await call(client, 'get', ocrPath('pdf', fileId), ana.token)
    pdf.assertStatus(200)
    assert.equal(pdf.header('content-type'), 'application/pdf')
    assert.match(await textOf(Buffer.from(pdf.body() as Buffer)), /Resolucion de permiso/)
    assert.deepEqual(await billed(), [`doc:${fileId}:v1:p1`, `doc:${fileId}:v1:p2`])

    // The job run again (a retry after its effect): nothing OCR'd, billed or changed.
    const engine = await engineOnPath()
    try {
      const job = ocrJobs[0]!
      const ctx = { id: 'again', name: 'documents:ocr', attempt: 2, signal: new AbortController().signal }
      assert.deepEqual(await job.handle({ runId: run.id }, ctx), { state: 'done' })
      assert.deepEqual(await engine.calls(), [])
    } finally {
      await engine.restore()
    }
    assert.deepEqual(await billed(), [`doc:${fileId}:v1:p1`, `doc:${fileId}:v1:p2`])
  })

  test('a born-digital PDF is skipped page by page, badge digital, its own text searchable; force OCRs it', async ({
    client,
    assert,
  }) => {
    await settings({ ocrLanguages: ONE_LANGUAGE })
    const ana = await person(client, 'ana_dig', 'teacher')
    const fileId = await uploadOne(client, ana, 'digital.pdf', await digitalPdf(PAGES))
    await startOcr(client, ana, fileId)
    const skipped = await finished(client, ana, fileId)
    assert.equal(skipped.state, 'done')
    assert.deepInclude(skipped.details, { skip: 2, ocr: 0 })
    assert.isFalse(skipped.searchable, 'nothing was OCR’d: the file itself is the searchable PDF')
    assert.include(await db.from('documents_files').where('id', fileId).first(), { sub_type: 'digital', pages: 2 })
    assert.deepEqual(await found(client, ana, 'expediente'), ['digital.pdf'])
    assert.deepEqual(await billed(), [], 'skipped pages are not billed')

    const forced = await startOcr(client, ana, fileId, 'force')
    assert.notEqual(forced.id, skipped.id)
    const run = await finished(client, ana, fileId)
    assert.equal(run.mode, 'force')
    assert.deepInclude(run.details, { ocr: 2, skip: 0 })
    assert.include(await db.from('documents_files').where('id', fileId).first(), { sub_type: 'ocr' })
    assert.lengthOf(await billed(), 2)
  })

  test('pages go to the engine in batches, each page read apart: OCR’d, skipped, billed once', async ({
    client,
    assert,
  }) => {
    // Two workers: five pending pages make a batch of three and one of two (run.ts batchesOf).
    await settings({ ocrWorkers: 2, ocrLanguages: ONE_LANGUAGE })
    assert.deepEqual(batchesOf([1, 2, 3, 4, 5], 2), [
      [1, 2, 3],
      [4, 5],
    ])
    const ana = await person(client, 'ana_batch', 'teacher')
    const fileId = await uploadOne(client, ana, 'mezcla.pdf', await mixedPdf())
    const engine = await engineOnPath()
    try {
      await startOcr(client, ana, fileId)
      const run = await finished(client, ana, fileId)
      assert.equal(run.state, 'done')
      assert.deepInclude(run.details, { ocr: 3, skip: 2, scan: 0, bad_response: 0 })
      const calls = (await engine.calls()).map((path) => path.split('/').pop())
      assert.sameMembers(calls, ['g-1.pdf', 'g-4.pdf'], 'one engine run per batch')
    } finally {
      await engine.restore()
    }
    await assertMixedResult(client, ana, fileId, assert)
  })

  test('a batch the engine fails on is redone page by page, and each page gets its own state', async ({
    client,
    assert,
  }) => {
    await settings({ ocrWorkers: 2, ocrLanguages: ONE_LANGUAGE })
    const ana = await person(client, 'ana_split', 'teacher')
    const fileId = await uploadOne(client, ana, 'mezcla.pdf', await mixedPdf())
    const engine = await engineOnPath({ failBatches: true })
    try {
      await startOcr(client, ana, fileId)
      const run = await finished(client, ana, fileId)
      assert.equal(run.state, 'done')
      const calls = (await engine.calls()).map((path) => path.split('/').pop())
      assert.sameMembers(calls, ['g-1.pdf', 'g-4.pdf', 'p-1.pdf', 'p-2.pdf', 'p-3.pdf', 'p-4.pdf', 'p-5.pdf'])
    } finally {
      await engine.restore()
    }
    await assertMixedResult(client, ana, fileId, assert)
  })

  test('a retried run OCRs only the pages it had not finished', async ({ client, assert }) => {
    // Three workers for three pages: one page per engine run, whatever the machine's cores.
    await settings({ ocrWorkers: 3, ocrLanguages: ONE_LANGUAGE })
    const ana = await person(client, 'ana_retry', 'teacher')
    const fileId = await uploadOne(client, ana, 'tres.pdf', await scannedPdf([...PAGES, ['Acta final', 'Firmas']]))
    const runId = await queuedRun(fileId)
    const job = ocrJobs[0]!
    // Pages 2 and 3 wait until released: the first run is stopped after page 1 on any machine (with
    // all three running at once, a fast machine could finish them before the stop).
    const engine = await engineOnPath({ holdAfterFirst: true })
    try {
      // First run: stopped once its first page is kept (the queue closing under it).
      const stop = new AbortController()
      const first = job.handle({ runId }, { id: 'r1', name: 'documents:ocr', attempt: 1, signal: stop.signal })
      await waitUntil(async () => {
        const row = await db.from('documents_ocr_pages').where('run_id', runId).count('* as n').first()
        if (Number(row?.n) >= 1) stop.abort()
        return Number(row?.n) >= 1
      }, 120_000)
      await assert.rejects(() => first, /stopped/)
      const keptFirst = await db.from('documents_ocr_pages').where('run_id', runId).select('page', 'created_at')
      assert.deepEqual(
        keptFirst.map((row) => Number(row.page)),
        [1]
      )
      const callsBefore = (await engine.calls()).length
      await engine.release()

      // The retry: every page done, and only those the first run had not kept went to the engine.
      const second = await job.handle(
        { runId },
        { id: 'r2', name: 'documents:ocr', attempt: 2, signal: new AbortController().signal }
      )
      assert.deepEqual(second, { state: 'done' })
      const calls = (await engine.calls()).slice(callsBefore)
      const keptPages = keptFirst.map((row) => Number(row.page))
      assert.lengthOf(calls, 3 - keptPages.length)
      for (const page of keptPages) assert.notInclude(calls.join('\n'), `p-${page}.pdf`)
      const rows = await db.from('documents_ocr_pages').where('run_id', runId).orderBy('page')
      assert.deepEqual(
        rows.map((row) => [Number(row.page), row.state]),
        [
          [1, 'ocr'],
          [2, 'ocr'],
          [3, 'ocr'],
        ]
      )
      for (const kept of keptFirst) {
        const now = rows.find((row) => Number(row.page) === Number(kept.page))
        assert.equal(String(now.created_at), String(kept.created_at), `page ${kept.page} was not written again`)
      }
    } finally {
      await engine.restore()
    }
    assert.lengthOf(await billed(), 3)
    assert.deepEqual(await found(client, ana, 'firmas'), ['tres.pdf'])
  })

  test('a PDF that cannot be read ends as internal_error and the document is untouched', async ({ client, assert }) => {
    const ana = await person(client, 'ana_bad', 'teacher')
    const good = await digitalPdf(PAGES)
    // A PDF's header and start, cut off: the upload checks pass it, pdf-lib cannot read it.
    const broken = new Uint8Array([...Buffer.from('%PDF-1.7\n'), ...good.slice(9, 200)])
    const fileId = await uploadOne(client, ana, 'roto.pdf', broken)
    const before = await db.from('documents_versions').where('file_id', fileId)
    await startOcr(client, ana, fileId)
    const run = await finished(client, ana, fileId)
    assert.equal(run.state, 'failed')
    assert.equal(run.error, 'internal_error')
    assert.equal(run.details.internal_error, 1)
    assert.isFalse(run.searchable)
    assert.deepEqual(await db.from('documents_versions').where('file_id', fileId), before)
    assert.include(await db.from('documents_files').where('id', fileId).first(), {
      ocr_state: 'failed',
      sub_type: 'other',
    })
    assert.deepEqual(await billed(), [])
  })

  test('without the engine the job is retried, and the last attempt records without_internet', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_noengine', 'teacher')
    const fileId = await uploadOne(client, ana, 'sin.pdf', await scannedPdf([PAGES[0]!]))
    const runId = await queuedRun(fileId)
    const job = ocrJobs[0]!
    const engine = await engineOnPath({ missing: true })
    try {
      const signal = new AbortController().signal
      await assert.rejects(
        () => job.handle({ runId }, { id: 'n1', name: 'documents:ocr', attempt: 1, signal }),
        /not available/
      )
      assert.deepEqual(await job.handle({ runId }, { id: 'n3', name: 'documents:ocr', attempt: 3, signal }), {
        state: 'failed',
      })
    } finally {
      await engine.restore()
    }
    const rows = await db.from('documents_ocr_pages').where('run_id', runId)
    assert.deepEqual(
      rows.map((row) => row.state),
      ['without_internet']
    )
    assert.deepEqual(await billed(), [])
  })

  test('with ocrOnUpload on, an uploaded PDF is queued and OCR’d; a text file is not', async ({ client, assert }) => {
    await settings({ ocrOnUpload: true, ocrLanguages: ONE_LANGUAGE })
    const ana = await person(client, 'ana_auto', 'teacher')
    const scan = await uploadOne(client, ana, 'auto.pdf', await scannedPdf([PAGES[1]!]))
    const note = await uploadOne(client, ana, 'nota.txt', txt('hola'))
    const run = await finished(client, ana, scan)
    assert.equal(run.state, 'done')
    assert.deepInclude(run.details, { ocr: 1 })
    assert.deepEqual(await found(client, ana, 'municipal'), ['auto.pdf'])
    assert.isNull(await status(client, ana, note))
  })

  test('bad requests: a text file, an unknown mode, someone else’s file; nothing queued', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_refuse', 'teacher')
    const beto = await person(client, 'beto_refuse', 'teacher')
    const note = await uploadOne(client, ana, 'nota.txt', txt('hola'))
    const scan = await uploadOne(client, ana, 'escaneo.pdf', await digitalPdf(PAGES))
    const counts = await libraryCounts()
    assertFail(await call(client, 'post', ocrPath('start', note), ana.token), 400, 'ocr_not_supported')
    assertFail(
      await call(client, 'post', ocrPath('start', scan), ana.token, { mode: 'bogus' }),
      400,
      'ocr_invalid_mode'
    )
    assertFail(await call(client, 'post', ocrPath('start', scan), beto.token), 404, 'access_not_found')
    assertFail(await call(client, 'get', ocrPath('status', scan), beto.token), 404, 'access_not_found')
    assertFail(await call(client, 'get', ocrPath('pdf', scan), ana.token), 404, 'ocr_no_pdf')
    assertFail(await call(client, 'post', ocrPath('start', 999_999), ana.token), 404, 'access_not_found')
    assert.deepEqual(await libraryCounts(), counts)
    assert.lengthOf(await db.from('documents_ocr_runs'), 0)
  })
})
