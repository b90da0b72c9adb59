import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { printFile, printerInfo, type PrintRequest } from '../../agent/drivers/ipp_printer.js'
import { deviceError } from '../helpers/rejection.js'
import { freePort, jobAttributes, receivedFiles, startPrinter, type TestPrinter } from '../helpers/services.js'

/** The IPP driver against CUPS's ippeveprinter: what the printer records is read back with ipptool. */

async function samplePdf(pages = 2): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (let n = 1; n <= pages; n++) pdf.addPage([612, 792]).drawText(`Tramita test page ${n}`, { x: 72, y: 700, font })
  return pdf.save()
}

function order(jobName: string, bytes: Uint8Array, more: Partial<PrintRequest> = {}): PrintRequest {
  return {
    jobName,
    bytes,
    mime: 'application/pdf',
    copies: 1,
    bothSides: false,
    color: false,
    tray: 1,
    media: 'letter',
    ...more,
  }
}

const name = (label: string) => `Tramita ${process.pid} ${label}`

test.group('IPP printer driver (ippeveprinter)', (group) => {
  let printer: TestPrinter
  group.setup(async () => {
    printer = await startPrinter({ name: name('main') })
    return () => printer.stop()
  })

  test('printerInfo reads name, brand and model, state, trays, duplex and colour', async ({ assert }) => {
    const info = await printerInfo(printer.uri, { timeoutMs: 5000 })
    assert.deepInclude(info, {
      name: printer.name,
      brand: 'Tramita',
      model: 'Test Printer',
      ready: true,
      duplex: true,
      color: true,
      stateReasons: [],
    })
    // ippeveprinter's colour model lists these sources, in this order.
    assert.deepEqual(info.trays, ['auto', 'main', 'photo'])
  })

  test('a PDF arrives as sent, with 2 copies, two-sided, in colour, on letter from tray 2', async ({ assert }) => {
    const pdf = await samplePdf()
    const outcome = await printFile(
      printer.uri,
      order('tramita-job-a-0', pdf, { copies: 2, bothSides: true, color: true, tray: 2 }),
      { timeoutMs: 20_000 }
    )
    assert.deepEqual(outcome, { jobId: outcome.jobId, state: 'completed', reused: false })

    const [file] = (await receivedFiles(printer)).filter((received) => received.jobId === outcome.jobId)
    assert.equal(file?.name, 'tramita-job-a-0')
    assert.deepEqual(new Uint8Array(await readFile(file.path)), pdf)

    const job = await jobAttributes(printer, outcome.jobId)
    assert.deepInclude(job, {
      'job-name': 'tramita-job-a-0',
      'job-state': 'completed',
      copies: '2',
      sides: 'two-sided-long-edge',
      'print-color-mode': 'color',
      'document-format-supplied': 'application/pdf',
    })
    // Tray 2 of ['auto', 'main', 'photo'], with the letter size beside it.
    assert.include(job['media-col'], 'media-source=main')
    assert.include(job['media-col'], 'x-dimension=21590 y-dimension=27940')
  })

  test('one-sided monochrome legal by keyword when the tray is not one the printer lists', async ({ assert }) => {
    const outcome = await printFile(
      printer.uri,
      order('tramita-job-b-0', await samplePdf(1), { tray: 9, media: 'legal' }),
      {
        timeoutMs: 20_000,
      }
    )
    const job = await jobAttributes(printer, outcome.jobId)
    assert.deepInclude(job, {
      copies: '1',
      sides: 'one-sided',
      'print-color-mode': 'monochrome',
      media: 'na_legal_8.5x14in',
    })
  })

  test('the same job name printed twice prints once', async ({ assert }) => {
    const pdf = await samplePdf(1)
    const first = await printFile(printer.uri, order('tramita-job-c-0', pdf), { timeoutMs: 20_000 })
    const second = await printFile(printer.uri, order('tramita-job-c-0', pdf), { timeoutMs: 20_000 })
    assert.isFalse(first.reused)
    assert.deepEqual(second, { jobId: first.jobId, state: 'completed', reused: true })
    const copies = (await receivedFiles(printer)).filter((file) => file.name === 'tramita-job-c-0')
    assert.lengthOf(copies, 1)
  })

  test('an unreachable printer fails at once with print_error', async ({ assert }) => {
    const uri = `ipp://127.0.0.1:${await freePort()}/ipp/print`
    const started = Date.now()
    const error = await deviceError(printFile(uri, order('tramita-job-d-0', await samplePdf(1)), { timeoutMs: 10_000 }))
    assert.equal(error.code, 'print_error')
    assert.match(error.detail, /cannot reach .*ECONNREFUSED/)
    assert.isBelow(Date.now() - started, 2000)
  })
})

test.group('IPP printer driver: printers that stall or fail', () => {
  test('a stopped printer (it accepts, never answers) fails within the timeout', async ({ assert, cleanup }) => {
    const printer = await startPrinter({ name: name('stopped') })
    cleanup(() => printer.stop())
    printer.suspend()
    for (const call of [
      () => printerInfo(printer.uri, { timeoutMs: 1500 }),
      async () => printFile(printer.uri, order('tramita-job-e-0', await samplePdf(1)), { timeoutMs: 1500 }),
    ]) {
      const started = Date.now()
      const error = await deviceError(call())
      assert.equal(error.code, 'print_error')
      // A later call of printFile names what was left of the 1500 ms when it began; the total is bounded below.
      assert.match(error.detail, /did not answer .* within \d+ ms/)
      assert.isBelow(Date.now() - started, 2500)
    }
  })

  test('a job still printing when sent again is waited for, not printed again', async ({ assert, cleanup }) => {
    const printer = await startPrinter({ name: name('slow'), script: 'sleep 3' })
    cleanup(() => printer.stop())
    const pdf = await samplePdf(1)
    // The first attempt gives up while the printer is still at it (an agent that crashed, a lost answer).
    const first = await deviceError(printFile(printer.uri, order('tramita-job-f-0', pdf), { timeoutMs: 1500 }))
    assert.equal(first.code, 'print_error')
    assert.match(first.detail, /still (pending|processing)/)
    const second = await printFile(printer.uri, order('tramita-job-f-0', pdf), { timeoutMs: 15_000 })
    assert.isTrue(second.reused)
    assert.lengthOf(await receivedFiles(printer), 1)
  })

  test('a printer out of paper gives no_paper', async ({ assert, cleanup }) => {
    // The print command reports the state as a CUPS filter would, then fails the job.
    const printer = await startPrinter({
      name: name('no paper'),
      script: 'echo "STATE: +media-empty-error" >&2\nexit 1',
    })
    cleanup(() => printer.stop())
    const error = await deviceError(
      printFile(printer.uri, order('tramita-job-g-0', await samplePdf(1)), { timeoutMs: 15_000 })
    )
    assert.equal(error.code, 'no_paper')
    assert.match(error.detail, /aborted .*printer: media-empty/)
  })

  test('a job the printer aborts for another reason gives print_error, and a new attempt prints again', async ({
    assert,
    cleanup,
  }) => {
    const printer = await startPrinter({ name: name('failing'), script: 'exit 1' })
    cleanup(() => printer.stop())
    const pdf = await samplePdf(1)
    const first = await deviceError(printFile(printer.uri, order('tramita-job-h-0', pdf), { timeoutMs: 15_000 }))
    assert.equal(first.code, 'print_error')
    assert.match(first.detail, /aborted/)
    // An aborted job is not one to reuse: the retry is sent (and fails the same way here).
    await deviceError(printFile(printer.uri, order('tramita-job-h-0', pdf), { timeoutMs: 15_000 }))
    assert.lengthOf(await receivedFiles(printer), 2)
  })
})
