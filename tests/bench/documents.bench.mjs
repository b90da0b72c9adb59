/**
 * Benchmarks of the documents plugin on MariaDB (issue 19), run by `npm run bench` (tests/bench/run.mjs)
 * as the parts `documents_list`, `documents_upload` and `documents_zip` (`documents`: all three). One
 * server (`tramita serve` on a fresh database tramita_docbench_<pid>, dropped at the end) serves them; the
 * demo admin signs in through PUT /data/login.
 *
 * - list: 100,000 generated documents in 2,000 folders (40 at the root, 49 inside each; 50 files in
 *   every folder), written straight into the plugin's tables (files, versions, search rows as the search
 *   area writes them). The p95 of listing a folder (GET /api/documents/library/mine) and of a search by
 *   one word (search_doc_folder), each beside a bare indexed SELECT answering the same question through
 *   mysql2, same clients, same run. Target: p95 <= 50 ms.
 * - upload: one 1 GB file through the library's upload route (POST /api/documents/files, multipart,
 *   streamed from disk), with the server's resident memory sampled from /proc while it runs. Target:
 *   growth <= 64 MB. Beside it, the same file copied on the same disk (the floor of storing it).
 * - zip: 1,000 files (20 KB of hex text each, uploaded through the route) streamed back as one zip (merge_doc,
 *   type_merge zip_docs), beside the download of one file of the same total size.
 *
 * A route that is not there (404) is reported as missing and its figure left out.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { copyFile, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import mysql from 'mysql2/promise'
import { MARIADB as DB, signInAdmin, startMariadbTramita } from './server.mjs'
import { target } from './targets.ts'

const CLIENTS = Number(process.env.BENCH_DOC_CLIENTS ?? 10)
const REQUESTS = Number(process.env.BENCH_DOC_REQUESTS ?? 1_000)
const WARM_UP = Math.min(100, Math.ceil(REQUESTS / 10))
/** Searches per timed pass (see benchList: the route's rate limit). */
const SEARCH_PASS = 50
const DOCUMENTS = Number(process.env.BENCH_DOC_COUNT ?? 100_000)
const FOLDERS = 2_000
const ROOT_FOLDERS = 40
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3)
const ZIP_FILES = 1_000
const ZIP_FILE_BYTES = 20 * 1024
const PASSWORD = 'Tramita#2026'
const SEARCH_BASE = '/inside/forms/create/search_endpoint'

const DATABASE = `tramita_docbench_${process.pid}`

/** Words of the generated names, each the first or the second word of 1 name in 63: a search for one finds about 1 document in 31. */
const WORDS = (
  'acta informe contrato factura recibo solicitud memoria balance inventario presupuesto nomina ' +
  'convenio anexo plano escritura poliza certificado declaracion expediente minuta oficio circular ' +
  'resolucion dictamen auditoria licencia permiso garantia pedido albaran propuesta proyecto manual ' +
  'protocolo registro censo matricula horario calendario listado catalogo estudio analisis encuesta ' +
  'evaluacion examen formulario justificante notificacion requerimiento sentencia demanda recurso ' +
  'aviso boletin carta correo agenda orden tarifa cuenta extracto liquidacion'
).split(' ')

const BOUNDARY = 'tramitadocbench'

/** One call; resolves with {status, headers, body (Buffer)} or, with `sink`, the bytes counted only. */
function send(agent, url, { method = 'GET', headers = {}, body, sink = false }) {
  return new Promise((resolveCall, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks = []
      let bytes = 0
      res.on('data', (c) => {
        bytes += c.length
        if (!sink) chunks.push(c)
      })
      res.on('end', () =>
        resolveCall({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), bytes })
      )
    })
    req.on('error', reject)
    if (body && typeof body.pipe === 'function') body.pipe(req)
    else req.end(body)
  })
}

/** The envelope's data of a call that must answer `done`. */
async function done(agent, url, options) {
  const answer = await send(agent, url, options)
  const text = answer.body.toString()
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new Error(`${options.method ?? 'GET'} ${url}: ${answer.status} ${text.slice(0, 200)}`)
  }
  if (parsed.status !== 'done')
    throw new Error(`${options.method ?? 'GET'} ${url}: ${answer.status} ${text.slice(0, 300)}`)
  return parsed.data
}

/** Multipart form fields (no files), encoded once. */
function fields(headers, values) {
  const parts = Object.entries(values).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  )
  const body = Buffer.from(parts.join('') + `--${BOUNDARY}--\r\n`)
  return {
    method: 'POST',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length },
    body,
  }
}

/** A multipart upload of files (name → path or Buffer) and fields, streamed: files are never held. */
async function* uploadBody(files, values) {
  for (const [name, value] of Object.entries(values)) {
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  for (const [fileName, source] of files) {
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
        'Content-Type: text/plain\r\n\r\n'
    )
    if (Buffer.isBuffer(source)) yield source
    else yield* createReadStream(source, { highWaterMark: 1024 * 1024 })
    yield Buffer.from('\r\n')
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`)
}

function uploadLength(files, values) {
  let length = 0
  for (const [name, value] of Object.entries(values)) {
    length += Buffer.byteLength(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  for (const [fileName, source] of files) {
    length += Buffer.byteLength(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
        'Content-Type: text/plain\r\n\r\n'
    )
    length += Buffer.isBuffer(source) ? source.length : statSync(source).size
    length += 2
  }
  return length + Buffer.byteLength(`--${BOUNDARY}--\r\n`)
}

async function upload(bench, files, values = {}) {
  return done(bench.agent, `${bench.origin}/api/documents/files`, {
    method: 'POST',
    headers: {
      token: bench.token,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': uploadLength(files, values),
    },
    body: Readable.from(uploadBody(files, values)),
  })
}

/** Resident memory of a process in bytes, from /proc (NaN elsewhere). */
function rss(pid) {
  const file = `/proc/${pid}/status`
  if (!existsSync(file)) return Number.NaN
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))
  return Number(line?.match(/\d+/)?.[0] ?? Number.NaN) * 1024
}

/** Samples a process's RSS every 20 ms while `work` runs: before, peak and after. */
async function withRss(pid, work) {
  const before = rss(pid)
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20)
  const started = performance.now()
  try {
    const result = await work()
    return { result, ms: performance.now() - started, before, peak: Math.max(peak, rss(pid)) }
  } finally {
    clearInterval(timer)
  }
}

/** Runs `work(i)` REQUESTS times from CLIENTS loops; latency percentiles in ms. */
async function drive(count, work) {
  const latencies = []
  let next = 0
  const started = performance.now()
  async function loop() {
    while (next < count) {
      const i = next++
      const t = performance.now()
      await work(i)
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, loop))
  latencies.sort((a, b) => a - b)
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]
  return { rate: count / ((performance.now() - started) / 1000), p50: pct(0.5), p95: pct(0.95), p99: pct(0.99) }
}

/** Each measurement twice, forward then in reverse order, so passing load weighs on all alike; the worse of each. */
async function alternate(runs) {
  const names = Object.keys(runs)
  const seen = {}
  for (const name of [...names, ...names.toReversed()]) (seen[name] ??= []).push(await runs[name]())
  const worse = ([x, y]) => ({
    rate: Math.min(x.rate, y.rate),
    p50: Math.max(x.p50, y.p50),
    p95: Math.max(x.p95, y.p95),
  })
  return Object.fromEntries(names.map((name) => [name, worse(seen[name])]))
}

const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1)
const ms = (n) => (Number.isFinite(n) ? n.toFixed(1) : '?')
const line = (label, r) =>
  `${label.padEnd(58)} ${r.rate.toFixed(0).padStart(6)} req/s  p50 ${ms(r.p50).padStart(6)} ms  p95 ${ms(r.p95).padStart(6)} ms`

/** Is a route there? (anything but 404 / 405 from the router). */
async function routeExists(bench, method, path) {
  const answer = await send(bench.agent, `${bench.origin}${path}`, { method, headers: { token: bench.token } })
  return answer.status !== 404 && answer.status !== 405
}

/**
 * 100,000 documents in 2,000 folders, owned by the admin, written in batches of 2,000 rows: files, their
 * version 1, their search row (words as the search area indexes them: lower case, one space apart) and
 * the owner's running total of bytes.
 */
async function generate(pool, ownerId) {
  const now = new Date()
  const folders = []
  for (let id = 1; id <= FOLDERS; id++) {
    const parent = id <= ROOT_FOLDERS ? null : ((id - ROOT_FOLDERS - 1) % ROOT_FOLDERS) + 1
    folders.push([id, parent, 'normal', `Carpeta ${String(id).padStart(4, '0')}`, ownerId, now, now])
  }
  await pool.query(
    'INSERT INTO documents_folders (id, parent_id, type, name, creator_id, created_at, updated_at) VALUES ?',
    [folders]
  )
  const BATCH = 2_000
  for (let start = 1; start <= DOCUMENTS; start += BATCH) {
    const files = []
    const versions = []
    const search = []
    for (let id = start; id < Math.min(start + BATCH, DOCUMENTS + 1); id++) {
      const a = WORDS[id % WORDS.length]
      const b = WORDS[Math.floor(id / WORDS.length) % WORDS.length]
      const name = `${a[0].toUpperCase()}${a.slice(1)} ${b} ${id}.pdf`
      const key = `plugins/documents/2026/11/${randomUUID()}.pdf`
      const sha = createHash('sha256').update(String(id)).digest('hex')
      const size = 50_000 + (id % 1000) * 100
      const folder = ((id - 1) % FOLDERS) + 1
      files.push([id, folder, ownerId, name, 'pdf', 'application/pdf', size, key, sha, 1, now, now])
      versions.push([id, 1, name, 'application/pdf', size, key, sha, ownerId, now])
      search.push([id, `${a} ${b} ${id} pdf`, '', '', ''])
    }
    await pool.query(
      `INSERT INTO documents_files (id, folder_id, owner_id, name, extension, mime, size, storage_key, sha256,
       current_version, created_at, updated_at) VALUES ?`,
      [files]
    )
    await pool.query(
      `INSERT INTO documents_versions (file_id, number, name, mime, size, storage_key, sha256, created_by, created_at)
       VALUES ?`,
      [versions]
    )
    await pool.query('INSERT INTO documents_search (file_id, name, labels, metadata, body) VALUES ?', [search])
  }
  // The owner's running total of bytes, as the library's own writes keep it (server/library/usage.ts).
  await pool.query(
    `INSERT INTO documents_owner_locks (user_id, bytes_used) SELECT ?, COALESCE(SUM(size), 0) FROM documents_versions
     ON DUPLICATE KEY UPDATE bytes_used = VALUES(bytes_used)`,
    [ownerId]
  )
  await pool.query('ANALYZE TABLE documents_files, documents_folders, documents_versions')
}

/** Folder listing and search over 100k documents, each beside a bare indexed SELECT. */
async function benchList(bench, pool) {
  console.log(
    `━━ documents: listing and search, ${DOCUMENTS} documents in ${FOLDERS} folders, MariaDB, ${CLIENTS} clients ━━`
  )
  const started = performance.now()
  await generate(pool, bench.adminId)
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const folderOf = (i) => ((i * 7919) % FOLDERS) + 1
  const listPath = '/api/documents/library/mine'
  if (!(await routeExists(bench, 'GET', listPath))) console.log(`folder listing: route GET ${listPath} missing`)
  else {
    const routed = (i) =>
      done(bench.agent, `${bench.origin}${listPath}?folder=${folderOf(i)}&limit=50`, {
        headers: { token: bench.token },
      })
    const bareList = (i) =>
      pool.query(
        `SELECT id, name, extension, mime, size, pages, ocr_state, sub_type, current_version, updated_at, owner_id
         FROM documents_files WHERE folder_id = ? AND trashed_at IS NULL ORDER BY name LIMIT 50`,
        [folderOf(i)]
      )
    await drive(WARM_UP, routed)
    await drive(WARM_UP, bareList)
    const { route, bare } = await alternate({
      route: () => drive(REQUESTS, routed),
      bare: () => drive(REQUESTS, bareList),
    })
    console.log(line(`GET ${listPath}?folder=… (50 per page)`, route))
    console.log(line('bare SELECT of the folder’s first 50 files by name (mysql2)', bare))
    console.log(`folder listing p95: ${ms(route.p95)} ms (target <= 50 ms: ${target(route.p95 <= 50)})`)
    console.log(`folder listing p95 ratio (route / bare SELECT): ${(route.p95 / bare.p95).toFixed(1)}`)
  }

  const searchPath = `${SEARCH_BASE}/search_doc_folder`
  if (!(await routeExists(bench, 'POST', searchPath))) console.log(`search: route POST ${searchPath} missing`)
  else {
    const word = (i) => WORDS[(i * 31) % WORDS.length]
    const calls = WORDS.map((w) =>
      fields({ token: bench.token }, { case: 'POST', type_search: 'doc', jsonwhere: JSON.stringify({ text: w }) })
    )
    const routed = (i) => done(bench.agent, `${bench.origin}${searchPath}`, calls[(i * 31) % WORDS.length])
    const bareSearch = (i) =>
      pool.query(
        `SELECT f.id, f.name, f.extension, f.mime, f.size, f.folder_id, f.updated_at FROM documents_search s
         JOIN documents_files f ON f.id = s.file_id
         WHERE MATCH (s.name, s.labels, s.metadata, s.body) AGAINST (? IN BOOLEAN MODE)
           AND f.owner_id = ? AND f.trashed_at IS NULL ORDER BY f.updated_at DESC LIMIT 200`,
        [`+${word(i)}*`, bench.adminId]
      )
    // The full-text index's own part: the matching ids, no join, no order; no search of this word over
    // FULLTEXT can answer sooner.
    const lookupOnly = (i) =>
      pool.query(
        'SELECT file_id FROM documents_search WHERE MATCH (name, labels, metadata, body) AGAINST (? IN BOOLEAN MODE)',
        [`+${word(i)}*`]
      )
    const sample = await routed(0)
    const [[{ n }]] = await pool.query(
      'SELECT COUNT(*) AS n FROM documents_search WHERE MATCH (name, labels, metadata, body) AGAINST (? IN BOOLEAN MODE)',
      [`+${word(0)}*`]
    )
    console.log(`one word matches ${n} documents; the route answered ${sample.documents?.length ?? '?'} (capped)`)
    // The route allows 120 searches a minute per user: 1 + 10 warm-up + 2 passes of 50, in one window.
    await drive(10, routed)
    await drive(10, bareSearch)
    await drive(10, lookupOnly)
    const { route, bare, lookup } = await alternate({
      route: () => drive(SEARCH_PASS, routed),
      bare: () => drive(SEARCH_PASS, bareSearch),
      lookup: () => drive(SEARCH_PASS, lookupOnly),
    })
    console.log(line(`POST ${searchPath} (one word, ${SEARCH_PASS} a pass)`, route))
    console.log(line('bare MATCH … AGAINST of the same word, owner’s files (mysql2)', bare))
    console.log(line('full-text lookup alone: the matching ids, no join, no order (mysql2)', lookup))
    console.log(`search p95: ${ms(route.p95)} ms (target <= 50 ms: ${target(route.p95 <= 50)})`)
    console.log(`search p95 ratio (route / bare SELECT): ${(route.p95 / bare.p95).toFixed(1)}`)
  }
}

/** A 1 GB upload through the route with the server's RSS watched, beside a copy on the same disk. */
async function benchUpload(bench) {
  console.log(`━━ documents: one ${mb(UPLOAD_BYTES)} MB upload through the server, MariaDB ━━`)
  const path = '/api/documents/files'
  if (!(await routeExists(bench, 'POST', path))) return console.log(`upload: route POST ${path} missing`)
  const dir = mkdtempSync(join(tmpdir(), 'tramita-docbench-upload-'))
  try {
    const file = join(dir, 'grande.txt')
    const lineText = Buffer.from('Línea de un documento grande para medir la subida: 0123456789 abcdefghij\n')
    const block = Buffer.concat(
      Array.from({ length: Math.ceil((1024 * 1024) / lineText.length) }, () => lineText)
    ).subarray(0, 1024 * 1024)
    await pipeline(
      (async function* () {
        for (let written = 0; written < UPLOAD_BYTES; written += block.length) {
          yield block.subarray(0, Math.min(block.length, UPLOAD_BYTES - written))
        }
      })(),
      createWriteStream(file)
    )
    const copy = await withRss(process.pid, () => copyFile(file, join(bench.dataDir, `copia-${process.pid}.txt`)))
    await rm(join(bench.dataDir, `copia-${process.pid}.txt`), { force: true })
    const sent = await withRss(bench.pid, () => upload(bench, [['grande.txt', file]]))
    const result = sent.result.results?.[0]
    if (result?.status !== 'stored') throw new Error(`the upload was not stored: ${JSON.stringify(result)}`)
    const growth = sent.peak - sent.before
    console.log(
      `POST ${path}: ${mb(UPLOAD_BYTES)} MB in ${(sent.ms / 1000).toFixed(1)} s (${mb((UPLOAD_BYTES / sent.ms) * 1000)} MB/s); ` +
        `server RSS ${mb(sent.before)} → peak ${mb(sent.peak)} MB`
    )
    console.log(
      `copy of the same file on the same disk: ${(copy.ms / 1000).toFixed(1)} s (${mb((UPLOAD_BYTES / copy.ms) * 1000)} MB/s)`
    )
    console.log(`upload time ratio (route / disk copy): ${(sent.ms / copy.ms).toFixed(1)}`)
    console.log(
      `server RSS growth during the upload: ${mb(growth)} MB (target <= 64 MB: ${target(growth <= 64 * 1024 ** 2)})`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** 1,000 files streamed back as one zip, beside the download of one file of the same size. */
async function benchZip(bench) {
  console.log(`━━ documents: a zip of ${ZIP_FILES} files streamed, MariaDB ━━`)
  const path = `${SEARCH_BASE}/merge_doc`
  if (!(await routeExists(bench, 'POST', path))) return console.log(`zip: route POST ${path} missing`)
  const folder = await done(
    bench.agent,
    `${bench.origin}/api/documents/folders`,
    fields({ token: bench.token }, { name: `Zip ${process.pid}` })
  )
  const ids = []
  for (let start = 0; start < ZIP_FILES; start += 100) {
    const batch = Array.from({ length: Math.min(100, ZIP_FILES - start) }, (_, i) => {
      const n = start + i
      return [`parte-${String(n).padStart(4, '0')}.txt`, Buffer.from(randomBytes(ZIP_FILE_BYTES / 2).toString('hex'))]
    })
    const answer = await upload(bench, batch, { folder_id: folder.id })
    for (const r of answer.results) {
      if (r.status !== 'stored') throw new Error(`a zip part was refused: ${JSON.stringify(r)}`)
      ids.push(r.file.id)
    }
  }
  const whole = await upload(
    bench,
    [['entero.txt', Buffer.from(randomBytes((ZIP_FILES * ZIP_FILE_BYTES) / 2).toString('hex'))]],
    {
      folder_id: folder.id,
    }
  )
  const wholeId = whole.results[0].file.id
  const zipCall = fields(
    { token: bench.token },
    { case: 'POST', type_merge: 'zip_docs', rutes_merge: JSON.stringify(ids), name_doc: 'lote' }
  )
  const zipped = await withRss(bench.pid, () => send(bench.agent, `${bench.origin}${path}`, { ...zipCall, sink: true }))
  if (zipped.result.status !== 200 || !String(zipped.result.headers['content-type']).includes('zip')) {
    throw new Error(`the zip was not sent: ${zipped.result.status} ${zipped.result.headers['content-type']}`)
  }
  const downloaded = await withRss(bench.pid, () =>
    send(bench.agent, `${bench.origin}/api/documents/files/${wholeId}/content?download=1`, {
      headers: { token: bench.token },
      sink: true,
    })
  )
  console.log(
    `POST ${path} zip_docs, ${ZIP_FILES} files of ${ZIP_FILE_BYTES / 1024} KB: ${mb(zipped.result.bytes)} MB in ` +
      `${ms(zipped.ms)} ms; server RSS growth ${mb(zipped.peak - zipped.before)} MB`
  )
  console.log(
    `download of one ${mb(downloaded.result.bytes)} MB file: ${ms(downloaded.ms)} ms; server RSS growth ${mb(downloaded.peak - downloaded.before)} MB`
  )
  console.log(`zip time ratio (1,000-file zip / one file of the same bytes): ${(zipped.ms / downloaded.ms).toFixed(1)}`)
}

/** Runs the selected parts on one server and database; both are removed at the end. */
export async function documentsBench({ list, upload: uploads, zip }) {
  const server = await startMariadbTramita({ database: DATABASE, password: PASSWORD })
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
  const pool = mysql.createPool({ ...DB, database: DATABASE, connectionLimit: CLIENTS, charset: 'utf8mb4' })
  try {
    const token = await signInAdmin(server.origin, PASSWORD)
    const [[admin]] = await pool.query("SELECT id FROM users WHERE username = 'admin'")
    // The generated library alone fills the default 10 GB quota: the admin's is unlimited (0) here.
    await pool.query('INSERT INTO documents_quotas (user_id, bytes) VALUES (?, 0)', [admin.id])
    const bench = { agent, token, origin: server.origin, pid: server.pid, dataDir: server.dataDir, adminId: admin.id }
    if (list) await benchList(bench, pool)
    if (uploads) await benchUpload(bench)
    if (zip) await benchZip(bench)
  } finally {
    agent.destroy()
    await pool.end()
    await server.stop()
  }
}
