/**
 * OCR through the documents plugin's job (issue 20), run by `npm run bench` as the part `ocr`: a scan of
 * BENCH_OCR_PAGES pages (20; text rendered at 300 dpi to grey images, one image per page) uploaded to a
 * server on its embedded defaults (SQLite, the in-process queue: the job runs in the server process),
 * OCR'd through POST /api/documents/files/:id/ocr and followed to the end; beside it, `ocrmypdf` run
 * directly on the same file with the same languages and flags and one job per core (the engine's own
 * best on this machine). Each is run twice, in alternating order. Target: pages per minute through the
 * job >= 0.8x the direct run's. Memory: the server's resident growth while its job runs and the largest
 * total of the engine processes under it, sampled from /proc.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { scannedPdf } from '../../plugins/documents/tests/functional/ocr_fixtures.ts'
import { signInAdmin, startTramita } from './server.mjs'
import { target } from './targets.ts'

const run = promisify(execFile)
const PAGES = Number(process.env.BENCH_OCR_PAGES ?? 20)
const PASSWORD = 'Tramita#2026'
const LANGUAGES = 'spa+eng+chi_sim'

/** Resident memory of a process in bytes (0 once it is gone). */
function rss(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
    return line ? Number(line[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** Every process under `pid` (children, grandchildren…), from /proc. */
function descendants(pid) {
  const parents = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {}
  }
  const found = []
  const visit = (parent) => {
    for (const [child, of] of parents) {
      if (of !== parent) continue
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

/** Runs `work` sampling the server's RSS and its children's total every 100 ms. */
async function watched(pid, work) {
  const before = rss(pid)
  let server = before
  let engines = 0
  const timer = setInterval(() => {
    server = Math.max(server, rss(pid))
    engines = Math.max(
      engines,
      descendants(pid).reduce((sum, child) => sum + rss(child), 0)
    )
  }, 100)
  const started = performance.now()
  try {
    await work()
    return { ms: performance.now() - started, growth: server - before, engines }
  } finally {
    clearInterval(timer)
  }
}

async function api(origin, token, method, path, body) {
  const answer = await fetch(`${origin}${path}`, { method, headers: { token }, body }).then((r) => r.json())
  if (answer.status !== 'done') throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 300)}`)
  return answer.data
}

export async function ocrBench() {
  console.log(`━━ documents: OCR of a ${PAGES}-page scan (300 dpi), the job beside ocrmypdf alone ━━`)
  const dir = mkdtempSync(join(tmpdir(), 'tramita-ocrbench-'))
  const lines = Array.from({ length: PAGES }, (_, i) => [
    `Expediente ${1000 + i}: contrato de arrendamiento`,
    'Resolucion de la junta directiva sobre el presupuesto',
    'Informe de auditoria de las cuentas del ejercicio',
  ])
  const scan = join(dir, 'scan.pdf')
  writeFileSync(scan, await scannedPdf(lines, 300))
  const server = await startTramita({ TRAMITA_DEMO_PASSWORD: PASSWORD })
  try {
    const token = await signInAdmin(server.origin, PASSWORD)
    const form = new FormData()
    form.append('case', 'POST')
    form.append('files', new Blob([readFileSync(scan)], { type: 'application/pdf' }), 'scan.pdf')
    const uploaded = await api(server.origin, token, 'POST', '/api/documents/files', form)
    const fileId = uploaded.results[0].file.id

    const direct = () =>
      watched(process.pid, () =>
        run(
          'ocrmypdf',
          [
            '-q',
            '-l',
            LANGUAGES,
            '--skip-text',
            '--output-type',
            'pdf',
            '--optimize',
            '0',
            '--jobs',
            String(availableParallelism()),
            scan,
            join(dir, 'out.pdf'),
          ],
          { maxBuffer: 64 * 1024 ** 2 }
        )
      )
    const job = () =>
      watched(server.pid, async () => {
        const started = await api(
          server.origin,
          token,
          'POST',
          `/api/documents/files/${fileId}/ocr`,
          new URLSearchParams({ mode: 'skip' })
        )
        for (;;) {
          await new Promise((r) => setTimeout(r, 250))
          const now = await api(server.origin, token, 'GET', `/api/documents/files/${fileId}/ocr`)
          if (now.id === started.id && (now.state === 'done' || now.state === 'failed')) {
            if (now.state !== 'done' || now.details.ocr !== PAGES)
              throw new Error(`the run ended ${JSON.stringify(now)}`)
            return
          }
        }
      })
    const runs = { direct: [await direct()], job: [await job()] }
    runs.job.push(await job())
    runs.direct.push(await direct())
    const ppm = (list) => (PAGES * 60_000) / (list.reduce((sum, r) => sum + r.ms, 0) / list.length)
    const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1)
    const jobRate = ppm(runs.job)
    const directRate = ppm(runs.direct)
    console.log(
      `ocrmypdf alone, --jobs ${availableParallelism()}: ${directRate.toFixed(1)} pages/min (${runs.direct.map((r) => (r.ms / 1000).toFixed(1)).join(' s, ')} s)`
    )
    console.log(
      `through the documents:ocr job: ${jobRate.toFixed(1)} pages/min (${runs.job.map((r) => (r.ms / 1000).toFixed(1)).join(' s, ')} s)`
    )
    console.log(
      `OCR pages/min ratio (job / ocrmypdf alone): ${(jobRate / directRate).toFixed(2)} (target >= 0.8: ${target(jobRate / directRate >= 0.8)})`
    )
    console.log(
      `server RSS growth while its job runs: ${mb(Math.max(...runs.job.map((r) => r.growth)))} MB; engine processes at most ${mb(Math.max(...runs.job.map((r) => r.engines)))} MB together (ocrmypdf alone: ${mb(Math.max(...runs.direct.map((r) => r.engines)))} MB)`
    )
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
