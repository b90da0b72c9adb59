/**
 * What the cluster part proves across nodes (tests/reliability/parts/cluster.mjs runs them in order on
 * one Cluster): a socket event published on node A reaches its user on node B, a rate limit counts the
 * requests sent to both nodes, an hourly job runs once with both workers up (even once the queue has
 * dropped the finished job), a file uploaded through A is read through B (S3), and a session opened on
 * A works on B and its sign-out there ends it on A too.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Queue, QueueEvents } from 'bullmq'
import { WebSocket } from 'ws'
import { parse } from 'yaml'
import { type Cluster, type Node, DEMO_PASSWORD, ROOT } from './cluster.ts'

/** Calls per minute per user of push_notify on every node (PUSH_NOTIFY_PER_MINUTE, set small for the check). */
export const PUSH_LIMIT = 6

export interface Answer {
  status: number
  body: any
}

/** A call as the web client makes it: form fields (and files; a GET's in the query), the session in the `token` header. */
export async function call(
  node: Node,
  method: string,
  path: string,
  opts: {
    token?: string
    fields?: Record<string, string>
    file?: { field: string; name: string; bytes: Buffer }
    timeoutMs?: number
  } = {}
): Promise<Answer> {
  let body: URLSearchParams | FormData | undefined
  let url = `${node.url}${path}`
  if (method === 'GET' && opts.fields) {
    url += `${url.includes('?') ? '&' : '?'}${new URLSearchParams(opts.fields)}`
  } else if (opts.file) {
    const form = new FormData()
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v)
    form.append(opts.file.field, new Blob([new Uint8Array(opts.file.bytes)]), opts.file.name)
    body = form
  } else if (opts.fields) {
    body = new URLSearchParams(opts.fields)
  }
  const response = await fetch(url, {
    method,
    headers: opts.token ? { token: opts.token } : {},
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON (a file): kept as text
  }
  return { status: response.status, body: parsed }
}

export function expect(condition: unknown, what: string, detail?: unknown): asserts condition {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`)
}

export async function signIn(node: Node, user: string): Promise<string> {
  const password = createHash('sha256').update(DEMO_PASSWORD).digest('hex')
  const answer = await call(node, 'PUT', '/data/login', { fields: { case: 'PUT', user, password } })
  expect(answer.body?.status === 'done', `${user} signs in on ${node.name}`, answer)
  return answer.body.data.token_new as string
}

/** A signed-in socket on a node, collecting what it receives. */
export async function listen(node: Node, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${node.port}/ws?token=${encodeURIComponent(token)}`)
  const messages: { case: string; data: any }[] = []
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))))
  await new Promise<void>((ready, fail) => {
    ws.once('error', fail)
    ws.once('unexpected-response', (_req, res) => fail(new Error(`socket refused: ${res.statusCode}`)))
    ws.once('message', () => ready())
  })
  const next = async (kase: string, ms = 5000) => {
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
      const found = messages.find((m) => m.case === kase)
      if (found) return found
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`no ${kase} message on ${node.name} within ${ms} ms`)
  }
  return { ws, messages, next }
}

/** The state the checks share: the fixture form, a case of the student's and the sessions. */
export interface Scene {
  formKey: string
  caseKey: string
  student: { a: string; b: string }
  admin: string
  /** push_notify calls by the administrator so far (the limit counts them all). */
  pushes: number
}

/**
 * A one-step form with a file field, reviewed by the demo's Secretaría area (where the demo `admin` is),
 * published through the designer's routes; the demo `student` starts a case of it through node A.
 */
export async function setScene(cluster: Cluster): Promise<Scene> {
  const [a, b] = cluster.apps as [Node, Node]
  const admin = await signIn(a, 'admin')
  const formKey = await publishForm(cluster, admin, 'Avisos entre nodos', 'Secretaría')
  const student = { a: await signIn(a, 'student'), b: await signIn(b, 'student') }
  const started = await call(a, 'POST', '/data/form/flows/process', {
    token: student.a,
    fields: { case: 'POST', data: formKey, flow_values: JSON.stringify({ nombre: 'Ana' }) },
  })
  expect(started.body?.status === 'done', 'the student starts a case on node A', started)
  return { formKey, caseKey: started.body.data.key_process, student, admin, pushes: 0 }
}

/**
 * Publishes, as the administrator (`admin`: a session), a one-step form with a file field whose step is
 * filled by a member of the demo area `areaName`. Made through both nodes (when there are two): created
 * on A, its draft saved on B, published on A. Resolves with its key.
 */
export async function publishForm(cluster: Cluster, admin: string, name: string, areaName: string): Promise<string> {
  const [area] = await cluster.query<{ id: number }>('SELECT id FROM areas WHERE name = ?', [areaName])
  expect(area, `the demo data has the ${areaName} area`)
  const definition = {
    name,
    jsonconfig: {
      form: { pages: [{ name: 'Datos', layout: [['nombre'], ['adjunto']] }] },
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
        { field_name: 'adjunto', type: 'file', data: { label: { value: 'Adjunto' }, ext: ['pdf'] } },
      ],
    },
    process: {
      label: name,
      color: '#1C1066',
      states: [
        { id: 'init', label: 'Iniciado' },
        { id: 'end', label: 'Finalizado' },
      ],
      start: { step: 'revision' },
      steps: [
        {
          id: 'revision',
          label: 'Revisión',
          kind: 'fill',
          assign: { type: 'area', id: Number(area.id) },
          next: { step: null },
        },
      ],
    },
  }
  const [a, b = a] = cluster.apps as [Node, Node?]
  const created = await call(a, 'POST', '/inside/designer/forms', { token: admin, fields: { name } })
  expect(created.body?.status === 'done', 'the administrator creates the form on node A', created)
  const { id, key } = created.body.data as { id: number; key: string }
  const draft = await call(b, 'PUT', `/inside/designer/forms/${id}/draft`, {
    token: admin,
    fields: {
      name,
      jsonconfig: JSON.stringify(definition.jsonconfig),
      process: JSON.stringify(definition.process),
    },
  })
  expect(draft.body?.status === 'done', 'its draft is saved on node B', draft)
  const published = await call(a, 'POST', `/inside/designer/forms/${id}/publish`, { token: admin })
  expect(published.body?.status === 'done', 'it is published on node A', published)
  return key
}

export function push(node: Node, scene: Scene) {
  scene.pushes++
  return call(node, 'POST', '/inside/forms/create/search_endpoint/push_notify', {
    token: scene.admin,
    fields: { case: 'POST', data: scene.formKey, key_process: scene.caseKey, title: `aviso ${scene.pushes}` },
  })
}

/** push_notify sent on node A reaches the case's starter, whose socket is on node B (and not on A). */
export async function socketAcrossNodes(cluster: Cluster, scene: Scene): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const onB = await listen(b, scene.student.b)
  try {
    const sent = await push(a, scene)
    expect(sent.body?.status === 'done' && sent.body.data.sent === 1, 'push_notify on node A tells one person', sent)
    const got = await onB.next('push_notify')
    expect(got.data.title === `aviso ${scene.pushes}`, 'the student on node B gets the title sent to node A', got)
  } finally {
    onB.ws.close()
  }
}

/**
 * push_notify's per-user limit, sent to A and B in turn: exactly PUSH_LIMIT are taken in all (counted
 * in Redis), then both nodes refuse with 429. Counted per node, twice as many would pass.
 */
export async function rateLimitAcrossNodes(cluster: Cluster, scene: Scene): Promise<void> {
  const nodes = cluster.apps.slice(0, 2)
  const left = PUSH_LIMIT - scene.pushes
  const answers: { node: string; status: number }[] = []
  for (let i = 0; i < left + 3; i++) {
    const node = nodes[i % 2]!
    answers.push({ node: node.name, status: (await push(node, scene)).status })
  }
  const taken = answers.filter((x) => x.status === 200)
  const refused = answers.filter((x) => x.status === 429)
  expect(taken.length === left, `${PUSH_LIMIT} calls in all taken across both nodes`, answers)
  expect(refused.length === 3, 'the calls past the limit refused with 429', answers)
  expect(new Set(refused.map((x) => x.node)).size === 2, 'both nodes refuse once the shared count is reached', answers)
}

/** The BullMQ id of this hour's core:prune-sessions (the app nodes enqueue it at start and every 10 min). */
function hourlyBullId(at = new Date()): string {
  return `core:prune-sessions:${at.toISOString().slice(0, 13)}`.replaceAll(':', '%3A')
}

/**
 * core:prune-sessions of this hour ran once with two app nodes enqueuing it and two workers taking
 * jobs; then more jobs finish than the queue keeps (the hourly job is dropped from its memory, as on a
 * busy day), an app node restarts and enqueues it again: the queue refuses it (BullMQ says
 * `deduplicated`) and it does not run a second time.
 */
export async function hourlyJobOnce(cluster: Cluster, log: (line: string) => void): Promise<void> {
  const connection = { url: cluster.redis.url }
  const queue = new Queue('tramita', { connection, prefix: cluster.prefix })
  const events = new QueueEvents('tramita', { connection, prefix: cluster.prefix })
  try {
    await events.waitUntilReady()
    const workers = await queue.getWorkers()
    expect(workers.length === cluster.workers.length, 'every worker takes jobs from the queue', workers.length)
    const id = hourlyBullId()
    await waitFor(async () => (await queue.getJob(id))?.finishedOn, 20_000, `${id} to complete`)
    const job = (await queue.getJob(id))!
    expect(job.attemptsStarted === 1, `${id} ran once`, { attemptsStarted: job.attemptsStarted })

    // A busy hour: more finished jobs than the queue keeps (KEEP_COMPLETED, 1000), each a real job.
    const fillers = Array.from({ length: 1050 }, (_, i) => ({
      name: 'core:prune-job-effects',
      data: {},
      opts: { jobId: `filler-${i}`, removeOnComplete: { count: 1000 } },
    }))
    await queue.addBulk(fillers)
    await waitFor(async () => ((await queue.getJob(id)) ? undefined : true), 60_000, `${id} to be dropped`)
    log(`${fillers.length} jobs later the queue no longer keeps ${id}`)

    const seen: string[] = []
    const onDeduplicated = ({ deduplicationId }: { deduplicationId: string }) => seen.push(`dedup ${deduplicationId}`)
    const onAdded = ({ jobId }: { jobId: string }) => jobId === id && seen.push('queued again')
    const onCompleted = ({ jobId }: { jobId: string }) => jobId === id && seen.push('completed again')
    events.on('deduplicated', onDeduplicated)
    events.on('added', onAdded)
    events.on('completed', onCompleted)
    await cluster.restart(cluster.apps[0]!)
    // Past the hour the node enqueues the next hour's id instead (a new run, rightly): then only the
    // absence of a second run of this one is checked.
    if (hourlyBullId() === id) {
      const enqueued = async () => (seen.includes(`dedup ${id}`) || seen.includes('queued again') ? true : undefined)
      await waitFor(enqueued, 20_000, 'the node to enqueue it again')
    }
    // Whatever the queue took by now has run once it is idle (a second run would show as `queued again`).
    const idle = async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')
      return Object.values(counts).every((n) => n === 0) ? true : undefined
    }
    await waitFor(idle, 20_000, 'the queue to be idle')
    expect(!seen.includes('queued again') && !seen.includes('completed again'), `${id} is not run again`, seen)
    expect(!(await queue.getJob(id)), `${id} is not queued again`)
  } finally {
    await events.close()
    await queue.close()
  }
}

/** A small PDF the student uploads through node A; its bytes, and its address on node B. */
async function uploadThroughA(cluster: Cluster, scene: Scene, name: string): Promise<{ bytes: Buffer; onB: string }> {
  const [a, b] = cluster.apps as [Node, Node]
  const bytes = Buffer.from(`%PDF-1.4\n% ${name} ${Date.now()}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`)
  const uploaded = await call(a, 'POST', '/data/form/upload/files', {
    token: scene.student.a,
    fields: { case: 'POST', new_version: 'false', foldertype: 'files', field: 'adjunto', data: scene.formKey },
    file: { field: 'file', name, bytes },
  })
  expect(uploaded.body?.status === 'done', 'the upload through node A is taken', uploaded)
  const path = uploaded.body.data[0].path as string
  return { bytes, onB: `${b.url}/data/files/${path.slice(path.lastIndexOf('/') + 1)}` }
}

/** A PDF uploaded through node A (staged, in S3) is read back through node B, byte for byte. */
export async function fileAcrossNodes(cluster: Cluster, scene: Scene): Promise<void> {
  const { bytes, onB } = await uploadThroughA(cluster, scene, 'soporte.pdf')
  const read = await fetch(onB, { headers: { token: scene.student.b } })
  const got = Buffer.from(await read.arrayBuffer())
  expect(read.status === 200 && got.equals(bytes), 'node B serves the same bytes', { status: read.status })
  // In the object store (s3rver's folder), not on a node's disk.
  expect(
    filesUnder(cluster.s3Dir).some((f) => f.size === bytes.length),
    'the object is in the S3 store'
  )
}

function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [{ path, size: statSync(path).size }]
  })
}

/** A session opened on node A works on node B; signing out on B ends it on A as well. */
export async function sessionAcrossNodes(cluster: Cluster): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const token = await signIn(a, 'teacher')
  const onB = await call(b, 'GET', '/inside/inbox/summary', { token })
  expect(onB.status === 200 && onB.body?.status === 'done', 'the session from node A is valid on node B', onB)
  const out = await call(b, 'DELETE', '/inside/session', { token })
  expect(out.status === 200, 'signing out on node B', out)
  const after = await call(a, 'GET', '/inside/inbox/summary', { token })
  expect(after.status === 401, 'the session ended on node B is refused on node A', after)
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * deploy/docker-compose.yml (documentation: Docker does not run here) is valid YAML naming the
 * topology: 2 app nodes (`tramita serve`) behind the proxy, 2 workers, MariaDB, Redis and an S3 store,
 * every Tramita service on the same database, Redis, object store and APP_KEY.
 */
export function composeTopology(): void {
  // merge: the services share their settings through `<<: *tramita` (Compose reads merge keys).
  const compose = parse(readFileSync(join(ROOT, 'deploy', 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { command?: string[]; image?: string; environment?: Record<string, string> }>
  }
  const services = compose.services
  for (const name of ['proxy', 'app-a', 'app-b', 'worker-a', 'worker-b', 'mariadb', 'redis', 'minio']) {
    expect(services[name], `the compose file has the ${name} service`)
  }
  const tramita = ['app-a', 'app-b', 'worker-a', 'worker-b'].map((name) => services[name]!)
  expect(
    tramita.slice(0, 2).every((s) => s.command?.join(' ').includes('tramita serve')),
    'app nodes serve'
  )
  expect(
    tramita.slice(2).every((s) => s.command?.join(' ').includes('tramita worker')),
    'workers take jobs'
  )
  for (const key of ['DB_HOST', 'REDIS_URL', 'DRIVE_DISK', 'S3_ENDPOINT', 'APP_KEY']) {
    const values = new Set(tramita.map((s) => s.environment?.[key]))
    expect(values.size === 1 && !values.has(undefined), `every node has the same ${key}`, [...values])
  }
  expect(tramita[0]!.environment!.DRIVE_DISK === 's3', 'files go to the S3 store')
  const caddy = readFileSync(join(ROOT, 'deploy', 'Caddyfile'), 'utf8')
  expect(/reverse_proxy\s+app-a:3333\s+app-b:3333/.test(caddy), 'the proxy sends to both app nodes')
}

/** Resolves once every app node's /health says ok (each has its Redis connections and subscriptions back). */
async function allHealthy(cluster: Cluster, ms: number): Promise<void> {
  const ok = async (node: Node) => (await fetch(`${node.url}/health`).catch(() => null))?.status === 200
  await waitFor(
    async () => ((await Promise.all(cluster.apps.map(ok))).every(Boolean) ? true : undefined),
    ms,
    'healthy nodes'
  )
}

/** Redis restarted (it keeps nothing): the nodes subscribe again and an event still crosses from A to B. */
export async function afterRedisRestart(cluster: Cluster, scene: Scene): Promise<void> {
  await cluster.restartRedis()
  await allHealthy(cluster, 30_000)
  await socketAcrossNodes(cluster, scene)
}

/** The nodes' limit on each wait for MariaDB in the cluster part (DB_TIMEOUT_MS; the product's default is 30 s). */
export const DB_TIMEOUT_MS = 10_000

/**
 * MariaDB frozen (SIGSTOP: it holds every connection open and answers nothing, as a hung server or a
 * network dropping packets would): a signed-in request through each node is answered 503 once the node's
 * wait for the database passes DB_TIMEOUT_MS, not left waiting; once MariaDB runs again, both nodes serve.
 */
export async function whileMariaDBFrozen(cluster: Cluster, scene: Scene, log: (line: string) => void): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const pairs = [
    [a, scene.student.a],
    [b, scene.student.b],
  ] as const
  cluster.freezeMariaDB()
  try {
    for (const [node, token] of pairs) {
      const at = Date.now()
      // Far past the node's limits (a statement's wait, then the pool's): no answer by then is a hang.
      const answer = await call(node, 'GET', '/inside/inbox/summary', { token, timeoutMs: 6 * DB_TIMEOUT_MS }).catch(
        (error: Error) => ({ status: 0, body: `no answer: ${error.message}` })
      )
      expect(answer.status === 503, `${node.name} answers 503 while MariaDB is frozen`, answer)
      log(`${node.name}: 503 after ${Date.now() - at} ms with MariaDB frozen (${JSON.stringify(answer.body)})`)
    }
    await healthNames(a, 'database', log)
  } finally {
    cluster.thawMariaDB()
  }
  for (const [node, token] of pairs) {
    const answers = async () =>
      (await call(node, 'GET', '/inside/inbox/summary', { token })).status === 200 ? true : undefined
    await waitFor(answers, 30_000, `${node.name} to answer once MariaDB runs again`)
  }
}

/** /health on a node answers (within its parts' own limit, core/server/app/lib/health_check.ts) that `part` is down. */
async function healthNames(node: Node, part: string, log: (line: string) => void): Promise<void> {
  const at = Date.now()
  const health = await call(node, 'GET', '/health', { timeoutMs: 60_000 }).catch((error: Error) => ({
    status: 0,
    body: `no answer: ${error.message}`,
  }))
  const degraded: unknown = health.body?.degraded
  expect(
    health.status === 503 && Array.isArray(degraded) && degraded.includes(part),
    `${node.name}'s /health says ${part} is down`,
    health
  )
  log(`${node.name}: /health degraded (${String(degraded)}) after ${Date.now() - at} ms`)
}

/** The nodes' limit on an S3 request's silence in the cluster part (S3_TIMEOUT_MS; the product's default is 30 s). */
export const S3_TIMEOUT_MS = 5_000

/**
 * The object store silent (a proxy before s3rver stops passing bytes): a file read through a node is
 * answered 503 once the S3 client's tries pass S3_TIMEOUT_MS each, not left waiting; once the store
 * answers again, the same bytes are served.
 */
export async function whileS3Silent(cluster: Cluster, scene: Scene, log: (line: string) => void): Promise<void> {
  const b = cluster.apps[1]!
  const { bytes, onB: url } = await uploadThroughA(cluster, scene, 'silencio.pdf')
  const headers = { token: scene.student.b }
  cluster.freezeS3()
  try {
    const at = Date.now()
    // Far past the client's three tries: no answer by then is a hang.
    const read = await fetch(url, { headers, signal: AbortSignal.timeout(12 * S3_TIMEOUT_MS) }).then(
      async (response) => ({ status: response.status, body: await response.text() }),
      (error: Error) => ({ status: 0, body: `no answer: ${error.message}` })
    )
    expect(read.status === 503, 'node B answers 503 while the store is silent', read)
    log(`${b.name}: 503 after ${Date.now() - at} ms with S3 silent (${read.body})`)
    await healthNames(b, 'storage', log)
  } finally {
    cluster.thawS3()
  }
  const again = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
  const got = Buffer.from(await again.arrayBuffer())
  expect(again.status === 200 && got.equals(bytes), 'the same bytes once the store answers', { status: again.status })
}

/** MariaDB crashed and restarted: both nodes serve signed-in requests again, sessions intact. */
export async function afterMariaDBRestart(cluster: Cluster, scene: Scene): Promise<void> {
  await cluster.restartMariaDB('SIGKILL')
  const [a, b] = cluster.apps as [Node, Node]
  for (const [node, token] of [
    [a, scene.student.a],
    [b, scene.student.b],
  ] as const) {
    const answers = async () =>
      (await call(node, 'GET', '/inside/inbox/summary', { token })).status === 200 ? true : undefined
    await waitFor(answers, 30_000, `${node.name} to answer after the restart`)
  }
  await allHealthy(cluster, 30_000)
}
