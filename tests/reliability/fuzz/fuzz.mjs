/**
 * The fuzzer's run against one server: every operation of its /openapi.json as every role, in
 * batches sent a few at a time. After each batch: no answer 5xx, none slower than 5 s, the server
 * still up; and the database's fingerprint (checksum.mjs) unchanged unless a request that may write
 * (not GET, answered below 400) was in the batch. When something changed in a batch that had such a
 * write, its refused writes are sent again one by one, a fingerprint around each, so that no refused
 * request goes unchecked (counted apart); when nothing changed, no request of the batch changed anything.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { changedTables, checksummer } from './checksum.mjs'
import { encode, operationsOf, requestArb } from './requests.mjs'

/**
 * GET routes that write on purpose when they answer: reading a document's content puts it among the
 * reader's recent files (spec 001 §3). Every other GET is taken for a read. (A fuzzed path ' 1' reached
 * file 1's content as the superuser, and its recent entry was counted as a refused request's change.)
 */
const RECORDING_READS = new Set(['GET /api/documents/files/:id/content'])
const writes = (request) => request.method !== 'GET' || RECORDING_READS.has(request.label)

export const ROLES = ['anonymous', 'student', 'teacher', 'supervisor', 'superuser']
/** The demo accounts `--seed-demo` creates, one per role. */
const ACCOUNTS = { student: 'student', teacher: 'teacher', supervisor: 'supervisor', superuser: 'admin' }
const PASSWORD = process.env.TRAMITA_DEMO_PASSWORD || 'Tramita#2026'
export const HANG_MS = 5_000

const prehash = (text) => createHash('sha256').update(text, 'utf8').digest('hex')

async function signIn(baseUrl, role) {
  const response = await fetch(new URL('/data/login', baseUrl), {
    method: 'PUT',
    // The accounts sign in from an address of their own: the fuzzer's junk sign-ins count against others.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': `10.255.0.${ROLES.indexOf(role)}`,
    },
    body: new URLSearchParams({
      case: 'PUT',
      user: ACCOUNTS[role],
      password: prehash(PASSWORD),
      side_login: 'admin',
      type_login: 'normal',
    }),
  })
  const body = await response.json().catch(() => null)
  const token = body?.data?.token_new
  if (!token) throw new Error(`${role} could not sign in: ${response.status} ${JSON.stringify(body)?.slice(0, 200)}`)
  return token
}

/** A seeded shuffle, so a run is repeated by its seed. */
function shuffle(list, seed) {
  let s = seed >>> 0 || 1
  for (let i = list.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    const j = s % (i + 1)
    ;[list[i], list[j]] = [list[j], list[i]]
  }
  return list
}

/**
 * Values worth sending: what the server's own lists answer (every GET without path parameters, as the
 * student and as the superuser), such as form keys, case keys, task tokens, ids and names, so that
 * requests get past "not found" into the code behind it. Sorted, so a seed repeats a run.
 */
async function harvest(baseUrl, operations, tokens) {
  const values = new Set()
  const collect = (value, depth = 0) => {
    if (depth > 10 || values.size > 800) return
    if (typeof value === 'string' && value.length >= 1 && value.length <= 200) values.add(value)
    else if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) values.add(String(value))
    else if (Array.isArray(value)) value.slice(0, 30).forEach((v) => collect(v, depth + 1))
    else if (value && typeof value === 'object') Object.values(value).forEach((v) => collect(v, depth + 1))
  }
  const read = async (path, token) => {
    const response = await fetch(new URL(path, baseUrl), {
      headers: { token, 'x-forwarded-for': '10.255.1.1' },
    }).catch(() => null)
    if (response?.headers.get('content-type')?.includes('json'))
      collect((await response.json().catch(() => null))?.data)
  }
  const lists = operations.filter((op) => op.method === 'GET' && !['/openapi.json', '/health'].includes(op.path))
  for (const token of [tokens.student, tokens.superuser]) {
    for (const op of lists.filter((op) => op.pathParams.length === 0)) await read(op.path, token)
  }
  // Then the items those lists name (a form's definition holds its field names), as the superuser.
  const ids = [...values].filter((v) => /^\d{1,4}$/.test(v)).slice(0, 3)
  for (const op of lists.filter((op) => op.pathParams.length === 1)) {
    for (const id of ids) await read(op.path.replace(/\{\w+\}/, id), tokens.superuser)
  }
  return [...values].sort()
}

export async function fuzzServer({ server, total, seed, log, batchSize = 24, concurrency = 8 }) {
  const started = Date.now()
  const document = await (await fetch(new URL('/openapi.json', server.baseUrl))).json()
  const operations = operationsOf(document)
  const tokens = {}
  for (const role of ROLES) if (role !== 'anonymous') tokens[role] = await signIn(server.baseUrl, role)

  const known = await harvest(server.baseUrl, operations, tokens)
  log(`${known.length} real values read from the server's lists`)
  // Every (operation, role) pair gets its share; then the requests are mixed so a batch spans routes and roles.
  const pairs = operations.flatMap((op) => ROLES.map((role) => ({ op, role })))
  const perPair = Math.ceil(total / pairs.length)
  const requests = shuffle(
    pairs.flatMap(({ op, role }, i) => fc.sample(requestArb(op, role, known), { numRuns: perPair, seed: seed + i })),
    seed
  )

  const stats = {
    sent: 0,
    replayed: 0,
    perRole: Object.fromEntries(ROLES.map((r) => [r, 0])),
    statuses: {},
    serverErrors: [],
    hangs: [],
    changedByRefused: [],
    signIns: 0,
    checksumMs: 0,
    /** Tables changed in a batch where no request, sent again alone, changed anything. */
    background: [],
    slowest: { ms: 0, label: '' },
  }
  const sums = await checksummer(server)
  // The fingerprint must see a change the server makes: one accepted write (the institution's name).
  const beforeProbe = await sums.sum()
  const probe = await fetch(new URL('/inside/config/institution', server.baseUrl), {
    method: 'PUT',
    headers: { token: tokens.superuser, 'content-type': 'application/json', 'x-forwarded-for': '10.255.1.2' },
    body: JSON.stringify({ case: 'PUT', name: `Fuzz ${seed}` }),
  })
  const seen = changedTables(beforeProbe, await sums.sum())
  if (probe.status !== 200 || seen.length === 0) {
    throw new Error(`the fingerprint did not see an accepted write (status ${probe.status}, tables ${seen})`)
  }
  let ip = 0
  const send = async (request) => {
    const token = request.token === 'role' ? tokens[request.role] : request.token === 'garbage' ? 'x'.repeat(40) : null
    // Junk requests come from many addresses, as on the Internet; per-address limits still apply to each.
    ip = (ip + 1) % 60_000
    const { url, init } = encode(request, server.baseUrl, token, `10.${(ip >> 8) & 255}.${ip & 255}.7`)
    const t0 = performance.now()
    let status
    let text = ''
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) })
      status = response.status
      text =
        status >= 500 || process.env.TRAMITA_FUZZ_TRACE ? await response.text() : (await response.arrayBuffer(), '')
      if (process.env.TRAMITA_FUZZ_TRACE) {
        console.log(
          status,
          request.role,
          request.label,
          request.encoding,
          Math.round(performance.now() - t0),
          text.slice(0, 160)
        )
      }
    } catch (error) {
      status = error?.name === 'TimeoutError' ? 'hang' : `error: ${error?.cause?.code ?? error?.message}`
      // Node's HTTP server answers 431 to a request line over its 16 KB header limit and closes the
      // socket: a client still writing the URL may see the reset (or, writing into the closed socket,
      // EPIPE) instead of the answer.
      if (['ECONNRESET', 'EPIPE'].includes(error?.cause?.code) && url.length > 16 * 1024) status = 431
    }
    const ms = performance.now() - t0
    return { request, status, ms, text }
  }
  const note = (result) => {
    const { request, status, ms } = result
    stats.sent++
    stats.perRole[request.role]++
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1
    if (ms > stats.slowest.ms) stats.slowest = { ms: Math.round(ms), label: `${request.label} as ${request.role}` }
    const sample = () => ({
      route: request.label,
      role: request.role,
      path: request.path,
      encoding: request.encoding,
      status,
      ms: Math.round(ms),
      answer: result.text.slice(0, 300),
      fields: JSON.stringify(request.fields).slice(0, 300),
    })
    if (typeof status !== 'number' || status >= 500) stats.serverErrors.push(sample())
    if (status === 'hang' || ms > HANG_MS) stats.hangs.push(sample())
  }
  /**
   * Sends a request again alone, a fingerprint around it; a refused one that changed something is
   * sent a third time, and counted only if it changes something again (not a background job's work).
   */
  const alone = async (request) => {
    const changes = []
    for (let attempt = 0; attempt < 2; attempt++) {
      const b = await sums.sum()
      const again = await send(request)
      stats.replayed++
      const tables = changedTables(b, await sums.sum())
      if (mayWrite(again) || tables.length === 0) return false
      changes.push({ status: again.status, tables })
    }
    stats.changedByRefused.push({
      route: request.label,
      role: request.role,
      path: request.path,
      fields: JSON.stringify(request.fields).slice(0, 300),
      changes,
    })
    return true
  }
  const mayWrite = (r) => writes(r.request) && typeof r.status === 'number' && r.status < 400

  for (let at = 0; at < requests.length; at += batchSize) {
    const batch = requests.slice(at, at + batchSize)
    const before = await sums.sum()
    const results = []
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < batch.length) results.push(await send(batch[next++]))
      })
    )
    results.forEach(note)
    const c0 = performance.now()
    const after = await sums.sum()
    stats.checksumMs += performance.now() - c0
    const changed = changedTables(before, after)
    if (changed.length === 0) {
      // Nothing changed: no request of the batch changed anything (refused or not).
    } else if (results.some(mayWrite)) {
      // A write went through: check each refused write alone.
      for (const r of results.filter((r) => writes(r.request) && !mayWrite(r))) await alone(r.request)
    } else {
      // Nothing was let through, yet something changed: find the request, one at a time.
      let found = false
      for (const r of results) found = (await alone(r.request)) || found
      // Work the server does by itself (a job of an earlier request finishing) changes tables too.
      if (!found) stats.background.push(changed.join(','))
    }
    // A role whose session a request ended (its own sign-out, its sessions closed) signs in again.
    const lost = new Set(
      results.filter((r) => r.request.token === 'role' && r.status === 401).map((r) => r.request.role)
    )
    for (const role of lost) {
      try {
        tokens[role] = await signIn(server.baseUrl, role)
        stats.signIns++
      } catch (error) {
        log(String(error.message))
      }
    }
    if (!server.alive()) {
      stats.serverErrors.push({ route: 'the server process', status: 'exited', answer: server.output().slice(-2000) })
      break
    }
    if ((at / batchSize) % 50 === 0) log(`${stats.sent} sent, ${((Date.now() - started) / 1000).toFixed(0)} s`)
  }
  await sums.close()
  stats.ms = Date.now() - started
  stats.operations = operations.length
  return stats
}
