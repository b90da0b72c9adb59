/**
 * Devices (issue 21), run by `npm run bench` as the part `devices`: a server on its embedded defaults,
 * a real agent process (`tramita agent`) with CUPS's ippeveprinter and SANE's test backend, and the
 * demo admin's socket.
 * - scan to field: POST …/scan until its scanforms_upload event reaches the asker's socket (the page
 *   scanned, wrapped as PDF, uploaded, stored as the form field's file), beside `scanimage` alone with
 *   the same settings writing the same page to a file;
 * - print round trip: POST …/print until its print_forms `done` event (the file copied for the agent,
 *   fetched, sent by IPP, the job followed to completed), beside the same IPP Print-Job and wait made
 *   directly by the agent's driver.
 * BENCH_DEVICES_RUNS runs of each (10), alternating; medians and p95 printed with their ratios. The issue
 * sets no target for these: the figures say what the agent and server add to the device's own time.
 */
import { execFile, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { WebSocket } from 'ws'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { printFile } from '../../plugins/devices/agent/drivers/ipp_printer.ts'
import { saneTestEnv, startPrinter } from '../../plugins/devices/tests/helpers/services.ts'
import { signInAdmin, startTramita } from './server.mjs'

const RUNS = Number(process.env.BENCH_DEVICES_RUNS ?? 10)
const PASSWORD = 'bench-devices-password-1'
const ROOT = new URL('../../', import.meta.url).pathname
const NODE = join(ROOT, 'node_modules', '.bin', 'node')
const SCAN = { dpi: 150, color: false, widthCm: 28, heightCm: 22 }
const run = promisify(execFile)

async function api(origin, token, method, path, fields) {
  const body = fields ? new URLSearchParams({ case: method, ...fields }) : undefined
  const answer = await fetch(`${origin}${path}`, { method, headers: { token }, body }).then((r) => r.json())
  if (answer.status !== 'done') throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 300)}`)
  return answer.data
}

async function until(check, ms, what) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function stats(list) {
  const sorted = [...list].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
  return { p50: at(0.5), p95: at(0.95) }
}

async function onePagePdf() {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([612, 792])
  page.drawText('Acta de entrega para imprimir', {
    x: 72,
    y: 700,
    size: 18,
    font: await pdf.embedFont(StandardFonts.Helvetica),
  })
  return pdf.save()
}

async function devicesBench() {
  console.log(
    `━━ devices: scan to a form field and a print's round trip through the agent, beside the device alone (${RUNS} runs each) ━━`
  )
  const printer = await startPrinter({ name: 'Tramita Bench' })
  const sane = await saneTestEnv()
  const server = await startTramita({ TRAMITA_DEMO_PASSWORD: PASSWORD })
  const dir = mkdtempSync(join(tmpdir(), 'tramita-devbench-'))
  let agent
  let ws
  try {
    const token = await signInAdmin(server.origin, PASSWORD)
    const made = await api(server.origin, token, 'POST', '/api/devices/agents', { name: 'Banco' })
    agent = spawn(
      NODE,
      [
        'cli/bin/tramita.js',
        'agent',
        '--server',
        server.origin,
        '--no-discover',
        '--printer',
        printer.uri,
        '--scanner',
        'test:0',
      ],
      { cwd: ROOT, env: { ...process.env, ...sane.env, TRAMITA_AGENT_TOKEN: made.token }, stdio: 'ignore' }
    )
    const machines = await until(
      async () => {
        const rows = (await api(server.origin, token, 'GET', '/api/devices/machines')).machines
        return rows.length === 2 && rows.every((m) => m.availability !== 'not available') ? rows : null
      },
      60_000,
      'the agent’s two machines'
    )
    const printerRow = machines.find((m) => m.availability === 'print only')
    const scannerRow = machines.find((m) => m.availability === 'scan only')

    const events = []
    ws = new WebSocket(`${server.origin.replace('http', 'ws')}/ws?token=${encodeURIComponent(token)}`)
    ws.on('message', (raw) => events.push(JSON.parse(String(raw))))
    await until(() => events.some((e) => e.case === 'init'), 10_000, 'the socket')

    const formKey = (await api(server.origin, token, 'GET', '/inside/inbox/startable')).processes[0].key
    const pdf = await onePagePdf()
    const upload = new FormData()
    for (const [k, v] of Object.entries({
      case: 'POST',
      data: formKey,
      field: 'soportes',
      foldertype: 'files',
      new_version: 'false',
    }))
      upload.append(k, v)
    upload.append('file', new Blob([pdf], { type: 'application/pdf' }), 'acta.pdf')
    const path = (
      await fetch(`${server.origin}/data/form/upload/files`, { method: 'POST', headers: { token }, body: upload }).then(
        (r) => r.json()
      )
    ).data[0].path

    const viaTramitaScan = async () => {
      const tokenForm = `soportes$$$${randomUUID()}$$$front`
      const started = performance.now()
      await api(server.origin, token, 'POST', '/inside/forms/create/search_endpoint/scan', {
        config_printer: JSON.stringify({
          dpi: SCAN.dpi,
          color: SCAN.color,
          width: SCAN.widthCm,
          height: SCAN.heightCm,
        }),
        token_machine: scannerRow.token,
        token_form: tokenForm,
        data: formKey,
      })
      const event = await until(
        () => events.find((e) => e.case === 'scanforms_upload' && e.data.token_form === tokenForm),
        60_000,
        'the scan'
      )
      if (event.data.status !== 'good') throw new Error(`scan failed: ${JSON.stringify(event.data)}`)
      return performance.now() - started
    }
    const bareScan = async () => {
      const started = performance.now()
      await run(
        'scanimage',
        [
          '-d',
          'test:0',
          '--format=jpeg',
          '--resolution',
          String(SCAN.dpi),
          '--mode',
          'Gray',
          '-x',
          String(SCAN.widthCm * 10),
          '-y',
          String(SCAN.heightCm * 10),
          '-o',
          join(dir, 'bare.jpg'),
        ],
        { env: sane.env }
      )
      return performance.now() - started
    }
    const viaTramitaPrint = async () => {
      const started = performance.now()
      const { job } = await api(server.origin, token, 'POST', '/inside/forms/create/search_endpoint/print', {
        token: printerRow.token,
        files: JSON.stringify([path]),
        cant: '1',
      })
      await until(
        () => events.find((e) => e.case === 'print_forms' && e.data.data?.job === job && e.data.status !== 'sent'),
        60_000,
        'the print'
      )
      return performance.now() - started
    }
    const barePrint = async () => {
      const started = performance.now()
      await printFile(
        printer.uri,
        {
          jobName: `bare-${randomUUID()}`,
          bytes: pdf,
          mime: 'application/pdf',
          copies: 1,
          bothSides: false,
          color: true,
          tray: 1,
          media: 'letter',
        },
        { timeoutMs: 60_000 }
      )
      return performance.now() - started
    }

    // One of each first (warm-up: the agent's first download, the module loads), then alternating runs.
    await viaTramitaScan()
    await bareScan()
    await viaTramitaPrint()
    await barePrint()
    const times = { scan: [], bareScan: [], print: [], barePrint: [] }
    for (let i = 0; i < RUNS; i++) {
      const order =
        i % 2 === 0 ? ['scan', 'bareScan', 'print', 'barePrint'] : ['bareScan', 'scan', 'barePrint', 'print']
      for (const name of order) {
        const fn = { scan: viaTramitaScan, bareScan, print: viaTramitaPrint, barePrint }[name]
        times[name].push(await fn())
      }
    }
    const line = (label, through, bare) => {
      const t = stats(through)
      const b = stats(bare)
      console.log(
        `${label}: through Tramita p50 ${t.p50.toFixed(0)} ms, p95 ${t.p95.toFixed(0)} ms; alone p50 ${b.p50.toFixed(0)} ms, p95 ${b.p95.toFixed(0)} ms; ratio p50 ${(t.p50 / b.p50).toFixed(2)}, p95 ${(t.p95 / b.p95).toFixed(2)}`
      )
    }
    line('scan to field (150 dpi grey, 28 x 22 cm)', times.scan, times.bareScan)
    line('print round trip (1-page PDF)', times.print, times.barePrint)
  } finally {
    ws?.close()
    agent?.kill('SIGTERM')
    await server.stop()
    await printer.stop()
    await sane.remove()
    rmSync(dir, { recursive: true, force: true })
  }
}

await devicesBench()
