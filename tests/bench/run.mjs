#!/usr/bin/env node
/**
 * `npm run bench`: each figure is printed as a ratio against a baseline measured in the same run, on
 * the same machine, so the numbers compare across machines. A figure with a target prints 'met' or
 * 'MISSED' (tests/bench/targets.ts); any MISSED makes the run exit non-zero. The deterministic
 * figures (bytes of the form route and the designer's page, Monaco on demand, re-runs per change)
 * are asserted by `npm test` as well (tests/e2e/budgets.spec.ts, tests/e2e/designer.spec.ts,
 * core/contract/tests/submission.spec.ts).
 *
 * call-contract throughput: the full stack (AdonisJS + body parser + call-contract middleware + a
 * SQLite read + the done envelope) answering POST /data/config/infocompany with form-data case=GET,
 * against a bare node:http server answering the same JSON, each in its own process, both driven by the
 * same keep-alive client sending the same pre-encoded multipart body.
 */
import { spawn, spawnSync } from 'node:child_process'
import { Agent, request } from 'node:http'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ready, startTramita } from './server.mjs'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

const BOUNDARY = 'tramitabench'
/** The spec client's call, encoded once: multipart form-data with case=GET and first_load=true. */
const BODY = Buffer.from(
  [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="case"\r\n\r\nGET\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="first_load"\r\n\r\ntrue\r\n`,
    `--${BOUNDARY}--\r\n`,
  ].join('')
)

const MULTIPART = {
  method: 'POST',
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  body: BODY,
}

/** One request; resolves when the answer is `done`. `call` is {method, headers, body}. */
function post(agent, url, call = MULTIPART) {
  return new Promise((resolveRequest, reject) => {
    const req = request(
      url,
      {
        method: call.method,
        agent,
        headers: { ...call.headers, ...(call.body ? { 'content-length': call.body.length } : {}) },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString())
          if (body.status !== 'done') reject(new Error(`unexpected answer ${JSON.stringify(body)}`))
          else resolveRequest()
        })
      }
    )
    req.on('error', reject)
    req.end(call.body)
  })
}

/** Sends REQUESTS requests over CONNECTIONS keep-alive loops; returns req/s and latency percentiles. */
async function drive(url, count = REQUESTS, call = MULTIPART, connections = CONNECTIONS) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const latencies = []
  let next = 0
  const started = performance.now()
  async function loop() {
    while (next < count) {
      next++
      const t = performance.now()
      await post(agent, url, call)
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: connections }, loop))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]
  return { rps: count / seconds, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99) }
}

/** Waits until GET /health answers on the port. */

/** The baseline: a bare node:http server in its own process, answering the same JSON. */
async function bare() {
  const port = 40_000 + (process.pid % 20_000) + 1
  const source = `
    const answer = JSON.stringify({ status: 'done', data: { company: 'Institución Educativa Tramita', url_img: '' } })
    require('node:http').createServer((req, res) => {
      req.resume()
      req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(answer) })
    }).listen(${port}, '127.0.0.1')`
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'node'), ['-e', source], { stdio: 'inherit' })
  await ready(port)
  return {
    url: `http://127.0.0.1:${port}/data/config/infocompany`,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    },
  }
}

const tramita = startTramita

const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
const wanted = (name) => !ONLY || ONLY.includes(name)

/** The contract and sandbox figures (tests/bench/contract.bench.ts), run through ts-run like the server. */
if (wanted('contract')) {
  console.log('━━ contract and sandbox ━━')
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'contract.bench.ts')],
    { cwd: join(ROOT, 'core', 'server'), stdio: 'inherit' }
  )
  if (run.status !== 0) process.exitCode = 1
}
/**
 * Sign-in: logins per second at the argon2id cost in use (m=19 MiB, t=2, p=1) against the same
 * machine's raw argon2id verifications per second (the floor a sign-in cannot beat), and the p95 of
 * an authenticated GET (session lookup + user + roles) beside an unauthenticated one, 50 clients.
 */
if (wanted('auth')) {
  console.log('━━ sign-in ━━')
  const { createHash } = await import('node:crypto')
  const { createRequire } = await import('node:module')
  const argon2 = createRequire(join(ROOT, 'core', 'server', 'package.json'))('@node-rs/argon2')
  const prehash = createHash('sha256').update('Tramita#2026').digest('hex')
  const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 }
  const stored = await argon2.hash(prehash, options)
  const VERIFY = 200
  const LOGIN_CLIENTS = 4
  let started = performance.now()
  let done = 0
  await Promise.all(
    Array.from({ length: LOGIN_CLIENTS }, async () => {
      while (done < VERIFY) {
        done++
        await argon2.verify(stored, prehash)
      }
    })
  )
  const verifyRate = VERIFY / ((performance.now() - started) / 1000)

  const server = await tramita({ AUTH_RATE_PER_MINUTE: '1000000' })
  const form = (fields) => {
    const body = new URLSearchParams(fields).toString()
    return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(body) }
  }
  const loginCall = {
    method: 'PUT',
    ...form({ case: 'PUT', user: 'admin', password: prehash, side_login: 'admin', type_login: 'normal' }),
  }
  await drive(`${server.origin}/data/login`, 20, loginCall, LOGIN_CLIENTS)
  const logins = await drive(`${server.origin}/data/login`, VERIFY, loginCall, LOGIN_CLIENTS)
  const token = await fetch(`${server.origin}/data/login`, { method: 'PUT', ...loginCall }).then(
    async (r) => (await r.json()).data.token_new
  )
  const authed = { method: 'GET', headers: { token } }
  const open = { method: 'GET', headers: {} }
  await drive(`${server.origin}/inside/session`, 2_000, authed)
  const authedRun = await drive(`${server.origin}/inside/session`, REQUESTS, authed)
  await drive(`${server.origin}/data/config/infocompany`, 2_000, open)
  const openRun = await drive(`${server.origin}/data/config/infocompany`, REQUESTS, open)
  await server.stop()
  console.log(`argon2id verify (m=19 MiB, t=2, p=1), ${LOGIN_CLIENTS} at a time: ${verifyRate.toFixed(1)} /s`)
  console.log(
    `PUT /data/login, ${LOGIN_CLIENTS} clients: ${logins.rps.toFixed(1)} logins/s, p95 ${logins.p95.toFixed(1)} ms`
  )
  console.log(`logins per second ratio (login / raw argon2id verify): ${(logins.rps / verifyRate).toFixed(2)}`)
  console.log(`GET /inside/session (token)   ${authedRun.rps.toFixed(0)} req/s  p95 ${authedRun.p95.toFixed(2)} ms`)
  console.log(`GET /data/config/infocompany  ${openRun.rps.toFixed(0)} req/s  p95 ${openRun.p95.toFixed(2)} ms`)
  console.log(`authenticated GET p95 ratio (session / unauthenticated): ${(authedRun.p95 / openRun.p95).toFixed(2)}`)
}
/** create_doc of a 100-field form against pdfmake's empty document (tests/bench/create_doc.bench.ts). */
if (wanted('create_doc')) {
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'create_doc.bench.ts')],
    { cwd: join(ROOT, 'core', 'server'), stdio: 'inherit' }
  )
  if (run.status !== 0) process.exitCode = 1
}
/** The process engine's saves and steps on MariaDB (tests/bench/process.bench.mjs). */
if (wanted('saves') || wanted('steps')) {
  const { processBench } = await import('./process.bench.mjs')
  await processBench({ saves: wanted('saves'), steps: wanted('steps') })
}
/** The documents plugin on MariaDB: 100k-document listing and search, a 1 GB upload, a 1,000-file zip (documents.bench.mjs). */
if (['documents', 'documents_list', 'documents_upload', 'documents_zip'].some(wanted)) {
  const { documentsBench } = await import('./documents.bench.mjs')
  const part = (name) => wanted(name) || Boolean(ONLY?.includes('documents'))
  await documentsBench({ list: part('documents_list'), upload: part('documents_upload'), zip: part('documents_zip') })
}
/** OCR pages per minute through the documents plugin's job, beside ocrmypdf alone (ocr.bench.mjs). */
if (wanted('ocr')) {
  const { ocrBench } = await import('./ocr.bench.mjs')
  await ocrBench()
}
/** Scan to a form field and a print's round trip through a real agent, beside the device alone (devices.bench.mjs). */
if (wanted('devices')) {
  // Through ts-run: it imports the agent's TypeScript drivers and test helpers.
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'devices.bench.mjs')],
    { cwd: join(ROOT, 'core', 'server'), stdio: 'inherit' }
  )
  if (run.status !== 0) process.exitCode = 1
}
/** Saves/s and p99 with 1, 2, 4 app processes, socket fan-out across nodes (tests/bench/cluster.bench.ts). */
if (wanted('cluster')) {
  // Through ts-run: it drives the reliability suite's TypeScript cluster harness.
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'cluster.bench.ts')],
    { cwd: ROOT, stdio: 'inherit' }
  )
  if (run.status !== 0) process.exitCode = 1
}
/** The form route's initial JavaScript, gzipped (tests/bench/bundle.bench.mjs). */
if (wanted('bundle')) {
  console.log('━━ form route bundle ━━')
  const { bundleBench } = await import('./bundle.bench.mjs')
  bundleBench()
}
/** The form in headless Chromium beside SurveyJS on the same form (tests/bench/form.bench.mjs). */
if (wanted('form')) {
  const { formBench } = await import('./form.bench.mjs')
  await formBench()
}
/** The form designer: commit times on a 500-field form, its initial JS, Monaco on demand (designer.bench.mjs). */
if (wanted('designer')) {
  const { designerBench } = await import('./designer.bench.mjs')
  await designerBench()
}
/** A chain of 50 actions with conditions in headless Chromium (tests/bench/actions.bench.mjs). */
if (wanted('actions')) {
  const { actionsBench } = await import('./actions.bench.mjs')
  await actionsBench()
}
/** The table element: scrolling 2,000 rows in Chromium against a plain HTML table (tests/bench/table.bench.mjs). */
if (wanted('table')) {
  const { tableBench } = await import('./table.bench.mjs')
  await tableBench()
}
if (!wanted('http')) process.exit()

console.log('━━ call contract over HTTP ━━')
const results = {}
for (const [name, start] of [
  ['bare node:http', bare],
  ['tramita call', tramita],
]) {
  const target = await start()
  await drive(target.url, 2_000) // warm-up, not counted
  results[name] = await drive(target.url)
  await target.stop()
}
const base = results['bare node:http']
const ours = results['tramita call']
console.log(`requests ${REQUESTS}, connections ${CONNECTIONS}`)
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(16)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`
  )
}
console.log(`call-contract throughput ratio (tramita / bare): ${(ours.rps / base.rps).toFixed(2)}`)
console.log(`call-contract p99 ratio (tramita / bare): ${(ours.p99 / base.p99).toFixed(2)}`)
