/**
 * Jobs under faults across the cluster (issue 22). One worker is SIGKILLed while it is inside SMTP sends
 * (a real SMTP listener in this process holds its answer to DATA) and inside an OCR run; it is restarted,
 * and the checks account for what came of it: every mail arrived, each effect recorded once in
 * `job_effects`, duplicates no more than the sends in flight at the kill (the documented at-least-once
 * window between the server taking a mail and the effect's record); the scan ends OCR'd, each page
 * billed once and its words found. Then one retention code is confirmed through two nodes at once.
 *
 * The wait after the kill is the app's own: BullMQ notices the dead worker's jobs once their lock
 * (30 s) has lapsed, and a mail whose send died is claimed again only once that claim expires
 * (job_effects CLAIM_MS, 60 s; the job is put off until then without spending an attempt) — about 60 s.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { Queue } from 'bullmq'
import { scannedPdf } from '../../plugins/documents/tests/functional/ocr_fixtures.ts'
import type { Cluster, Node } from './cluster.ts'
import { type Answer, call, expect, signIn } from './cluster_checks.ts'
import type { MailListener } from './mail_listener.ts'
import { text } from './texts.ts'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Confirmation mails in the batch: more than one worker's concurrency (5), so both workers are sending. */
const MAILS = 6
/**
 * The scan's pages, one distinctive word each (what the search must find after OCR). With one engine
 * process (the ocrWorkers setting) 11 pages are two batches run one after the other (6 and 5, ocr/run.ts
 * batchesOf): the kill lands once the first has pages recorded, so the run after it has pages to skip.
 */
const SCAN_WORDS = [
  'MURCIELAGO',
  'PINGUINO',
  'ELEFANTE',
  'TORTUGA',
  'JIRAFA',
  'CANGURO',
  'LEOPARDO',
  'DELFIN',
  'CAMELLO',
  'HALCON',
  'ARDILLA',
]
/** From the kill until every job is done: the claim (60 s, which outlasts the 30 s lock) and slack. */
const RECOVERY_MS = 150_000

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await pause(100)
  }
}

function confirmationLink(text: string): { code: string; user: string } | null {
  const match = /\/confirmretention\?code=([^&\s]+)&user=(\d+)/.exec(text)
  return match ? { code: decodeURIComponent(match[1]!), user: match[2]! } : null
}

// ── processes ──────────────────────────────────────────────────────────────────────────────────────

/** Every process's parent and command line (/proc), to find what a worker has started. */
function processTable(): Map<number, { ppid: number; cmd: string }> {
  const table = new Map<number, { ppid: number; cmd: string }>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // After the command's name in parentheses (which may hold spaces): state, then the parent's id.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ')
      table.set(Number(name), { ppid, cmd })
    } catch {
      // ended while being read
    }
  }
  return table
}

function descendants(pid: number): { pid: number; cmd: string }[] {
  const table = processTable()
  const out: { pid: number; cmd: string }[] = []
  const parents = [pid]
  while (parents.length > 0) {
    const parent = parents.pop()!
    for (const [child, row] of table) {
      if (row.ppid !== parent) continue
      out.push({ pid: child, cmd: row.cmd })
      parents.push(child)
    }
  }
  return out
}

const runsEngine = (node: Node) => descendants(node.child.pid!).some((p) => /ocrmypdf|tesseract/.test(p.cmd))

// ── documents ──────────────────────────────────────────────────────────────────────────────────────

/** A file uploaded to the documents library by `token`'s user → its id. */
async function upload(node: Node, token: string, name: string, bytes: Buffer): Promise<number> {
  const answer = await call(node, 'POST', '/api/documents/files', {
    token,
    file: { field: 'files', name, bytes },
    timeoutMs: 30_000,
  })
  const stored = answer.body?.data?.results?.[0]
  expect(stored?.status === 'stored', `${name} is uploaded on ${node.name}`, answer.body)
  return Number(stored.file.id)
}

function done(answer: Answer, what: string): any {
  expect(answer.status === 200 && answer.body?.status === 'done', what, answer)
  return answer.body.data
}

// ── the worker killed mid-send and mid-OCR ─────────────────────────────────────────────────────────

export interface CrashScene {
  teacher: string
  /** The documents whose confirmations were mailed, by id. */
  documents: Map<number, string>
  /** Mails received before the batch (the accounting counts from here). */
  mailsBefore: number
  /** plugin-mail effects recorded before the batch. */
  effectsBefore: Set<string>
  /** Held sends the killed worker was inside (the listener had the whole mail, the sender never heard back). */
  inFlight: number
  killed: string
  killedAt: number
  ocr: { fileId: number; name: string; runId: number; pagesDoneAtKill: number }
  /** The OCR run once it ended (watched from the kill on), and when. */
  ocrEnded: Promise<{ row: OcrRunRow; at: number }>
}

type OcrRunRow = { state: string; pages: number; pages_done: number; error: string | null }

/**
 * Sets the stage and the crash: MAILS documents past their retention (a schedule of 1 + 1 years, the files
 * made 5 years old) and an 11-page scan. The listener holds the confirmations' answers; `tramita
 * documents:retention` queues them and both workers send (one holds at most 5: each holds some). The
 * scan's OCR starts; once its first pages are recorded, the worker running the engine is SIGKILLed with
 * the engine under it (a node's crash takes its processes), then the listener answers the rest and the
 * worker starts again.
 */
export async function crashWorkerMidJobs(
  cluster: Cluster,
  listener: MailListener,
  log: (line: string) => void
): Promise<CrashScene> {
  const [a, b] = cluster.apps as [Node, Node]
  const tag = Date.now().toString(36)
  const admin = await signIn(a, 'admin')
  const teacher = await signIn(b, 'teacher')
  const schedule = done(
    await call(a, 'POST', '/api/documents/retention/schedules', {
      token: admin,
      fields: {
        case: 'POST',
        code: `REL-${tag}`,
        serie: 'Contratos',
        subserie: 'Prestación de servicios',
        doc_type: 'Contrato',
        active_years: '1',
        central_years: '1',
        disposition: 'archive',
      },
    }),
    'the administrator makes a retention schedule'
  )
  const documents = new Map<number, string>()
  for (let i = 0; i < MAILS; i++) {
    const name = `retencion-${tag}-${i}.txt`
    const id = await upload(i % 2 === 0 ? a : b, teacher, name, Buffer.from(`documento ${i} de ${tag}`))
    done(
      await call(b, 'PUT', '/api/documents/retention/assignments', {
        token: admin,
        fields: { case: 'PUT', target_type: 'file', target_id: String(id), schedule_id: String(schedule.id) },
      }),
      `${name} gets the schedule`
    )
    documents.set(id, name)
  }
  await cluster.query('UPDATE documents_files SET created_at = DATE_SUB(NOW(), INTERVAL 5 YEAR) WHERE id IN (?)', [
    [...documents.keys()],
  ])
  const scanName = `escaneo-${tag}.pdf`
  const scanId = await upload(
    a,
    teacher,
    scanName,
    Buffer.from(await scannedPdf(SCAN_WORDS.map((w, i) => [`Hoja ${i + 1}`, w])))
  )

  const effectsBefore = new Set(
    (
      await cluster.query<{ effect_key: string }>(
        "SELECT effect_key FROM job_effects WHERE effect_key LIKE 'plugin-mail:%'"
      )
    ).map((r) => r.effect_key)
  )
  const mailsBefore = listener.mails.length
  listener.hold((mail) => mail.text.includes(`retencion-${tag}-`))
  const issued = await cluster.cli(['documents:retention'])
  expect(
    issued.code === 0 && issued.output.includes(`${MAILS} document(s) due; ${MAILS} confirmation(s) mailed`),
    'documents:retention queues a confirmation per document',
    issued.output.slice(-600)
  )
  await waitFor(() => (listener.held().waiting === MAILS ? true : undefined), 30_000, `${MAILS} sends held at DATA`)

  done(
    await call(a, 'PUT', '/inside/plugin_settings/documents', {
      token: admin,
      fields: { case: 'PUT', settings: JSON.stringify({ ocrWorkers: 1, ocrLanguages: 'spa' }) },
    }),
    'the administrator sets OCR to one engine process, in Spanish'
  )
  const started = done(
    await call(a, 'POST', `/api/documents/files/${scanId}/ocr`, {
      token: teacher,
      fields: { case: 'POST', mode: 'skip' },
    }),
    'the teacher starts the scan’s OCR'
  )
  const worker = await waitFor(() => cluster.workers.find(runsEngine), 40_000, 'a worker to run the OCR engine')
  type Run = { state: string; pages_done: number }
  const ocrRun = await waitFor(
    async () => {
      const [r] = await cluster.query<Run>('SELECT state, pages_done FROM documents_ocr_runs WHERE id = ?', [
        started.id,
      ])
      return r && (r.state !== 'running' || r.pages_done > 0) ? r : undefined
    },
    60_000,
    'the OCR run to record its first pages'
  )
  expect(
    ocrRun.state === 'running' && ocrRun.pages_done < SCAN_WORDS.length,
    'the OCR run is still running when the worker dies',
    ocrRun
  )
  const engine = descendants(worker.child.pid!)
  await cluster.kill(worker, 'SIGKILL')
  const killedAt = Date.now()
  for (const p of engine) {
    try {
      process.kill(p.pid, 'SIGKILL')
    } catch {
      // ended already
    }
  }
  // The dead worker's connections close as it dies: its held sends show as dropped.
  await waitFor(() => (listener.held().dropped > 0 ? true : undefined), 5000, 'the killed worker’s sends to drop')
  await pause(300)
  const { dropped, waiting } = listener.held()
  expect(dropped + waiting === MAILS, 'every held send was either dropped or still waits', { dropped, waiting })
  listener.release()
  log(
    `${worker.name} SIGKILLed inside ${dropped} of ${MAILS} sends and an OCR run (${ocrRun.pages_done} pages recorded)`
  )
  const ocrEnded = waitFor(
    async () => {
      const [r] = await cluster.query<OcrRunRow>(
        'SELECT state, pages, pages_done, error FROM documents_ocr_runs WHERE id = ?',
        [started.id]
      )
      return r && (r.state === 'done' || r.state === 'failed') ? { row: r, at: Date.now() } : undefined
    },
    RECOVERY_MS,
    'the OCR run to end'
  )
  // Awaited by the OCR check; a failure is reported there, not as an unhandled rejection before.
  ocrEnded.catch(() => undefined)
  await cluster.restart(worker)
  return {
    teacher,
    documents,
    mailsBefore,
    effectsBefore,
    inFlight: dropped,
    killed: worker.name,
    killedAt,
    ocr: { fileId: scanId, name: scanName, runId: Number(started.id), pagesDoneAtKill: Number(ocrRun.pages_done) },
    ocrEnded,
  }
}

/**
 * After the kill, once every job is done: each document's confirmation arrived at least once (its code's
 * hash is its request's), `job_effects` holds each of the batch's effects once and done, and the mails
 * received twice are no more than the sends the kill cut short.
 */
export async function mailsAfterCrash(
  cluster: Cluster,
  listener: MailListener,
  scene: CrashScene,
  log: (line: string) => void
): Promise<void> {
  type Effect = { effect_key: string; claimed_until: Date | null }
  const batch = async () =>
    (
      await cluster.query<Effect>(
        "SELECT effect_key, claimed_until FROM job_effects WHERE effect_key LIKE 'plugin-mail:%'"
      )
    ).filter((r) => !scene.effectsBefore.has(r.effect_key))
  const effects = await waitFor(
    async () => {
      const rows = await batch()
      return rows.length === MAILS && rows.every((r) => r.claimed_until === null) ? rows : undefined
    },
    RECOVERY_MS - (Date.now() - scene.killedAt),
    `the ${MAILS} mails' effects to be recorded done`
  )
  const recovered = Date.now() - scene.killedAt

  const requests = await cluster.query<{ file_id: number; code_hash: string; mailed_at: Date | null }>(
    'SELECT file_id, code_hash, mailed_at FROM documents_retention_requests WHERE file_id IN (?)',
    [[...scene.documents.keys()]]
  )
  expect(
    requests.length === MAILS && requests.every((r) => r.mailed_at !== null),
    'one code mailed per document',
    requests
  )
  const codes = listener.mails.slice(scene.mailsBefore).flatMap((m) => confirmationLink(m.text) ?? [])
  const byHash = new Map<string, number>()
  for (const { code } of codes) byHash.set(sha256(code), (byHash.get(sha256(code)) ?? 0) + 1)
  const missing = requests.filter((r) => !byHash.has(r.code_hash)).map((r) => scene.documents.get(Number(r.file_id)))
  expect(missing.length === 0, 'every document’s confirmation arrived', missing)
  expect(byHash.size === MAILS, 'no mail with a code of another request', [...byHash.keys()])
  const duplicates = codes.length - byHash.size

  // How often BullMQ started each job: more than once for the sends the kill cut (and a retry refused
  // while the dead run's claim held).
  const queue = new Queue('tramita', { connection: { url: cluster.redis.url }, prefix: cluster.prefix })
  let runs = 0
  try {
    for (const effect of effects) {
      const job = await queue.getJob(effect.effect_key.replaceAll('%', '%25').replaceAll(':', '%3A'))
      expect(
        job?.finishedOn && job.returnvalue?.sent !== undefined,
        `job ${effect.effect_key} completed`,
        job?.toJSON()
      )
      runs += job.attemptsStarted
    }
  } finally {
    await queue.close()
  }
  log(
    `mails: expected ${MAILS}, received ${codes.length} (${byHash.size} distinct), duplicates ${duplicates} ` +
      `(sends in flight at the kill: ${scene.inFlight}); effects recorded ${effects.length}, each once; ` +
      `job runs ${runs}; all done ${(recovered / 1000).toFixed(1)} s after the kill`
  )
  expect(duplicates <= scene.inFlight, 'duplicates no more than the sends in flight at the kill', {
    duplicates,
    inFlight: scene.inFlight,
  })
}

/**
 * The scan whose OCR the killed worker was running ends OCR'd after the restart: its run done, one page
 * row per page (no page twice), one billable usage event per page, the file badged `ocr`, and the search
 * (through the other node) finds words of its first and last batch.
 */
export async function ocrAfterCrash(cluster: Cluster, scene: CrashScene, log: (line: string) => void): Promise<void> {
  const { fileId, runId } = scene.ocr
  const { row, at } = await scene.ocrEnded
  const pages = SCAN_WORDS.length
  expect(row.state === 'done' && row.pages === pages && row.pages_done === pages, 'the OCR run ends done', row)
  const pageRows = await cluster.query<{ page: number; state: string }>(
    'SELECT page, state FROM documents_ocr_pages WHERE run_id = ? ORDER BY page',
    [runId]
  )
  expect(
    pageRows.length === pages && pageRows.every((p, i) => p.page === i + 1 && p.state === 'ocr'),
    'one OCR’d row per page',
    pageRows
  )
  const [file] = await cluster.query<{ ocr_state: string; sub_type: string; pages: number }>(
    'SELECT ocr_state, sub_type, pages FROM documents_files WHERE id = ?',
    [fileId]
  )
  expect(file?.ocr_state === 'done' && file.sub_type === 'ocr' && file.pages === pages, 'the file is OCR’d', file)
  const usage = await cluster.query<{ key: string; amount: number }>(
    "SELECT `key`, amount FROM usage_events WHERE plugin = 'documents' AND metric = 'ocr_page' AND `key` LIKE ?",
    [`doc:${fileId}:%`]
  )
  const keys = usage.map((u) => u.key).sort()
  const expected = Array.from({ length: pages }, (_, i) => `doc:${fileId}:v1:p${i + 1}`).sort()
  expect(
    JSON.stringify(keys) === JSON.stringify(expected) && usage.every((u) => Number(u.amount) === 1),
    'one billable page each, none twice',
    usage
  )
  const b = cluster.apps[1]!
  // The first page, the last of the first batch and the last page.
  for (const word of [SCAN_WORDS[0]!, SCAN_WORDS[5]!, SCAN_WORDS[pages - 1]!]) {
    const found = done(
      await call(b, 'POST', '/inside/forms/create/search_endpoint/search_doc_folder', {
        token: scene.teacher,
        fields: { case: 'POST', type_search: 'doc', jsonwhere: JSON.stringify({ text: word.toLowerCase() }) },
      }),
      `the search for ${word}`
    ) as { documents: { name: string }[] }
    expect(
      found.documents.some((d) => d.name === scene.ocr.name),
      `the search finds ${word} in the scan`,
      found.documents
    )
  }
  log(
    `OCR: ${pages} pages, ${scene.ocr.pagesDoneAtKill} recorded before the kill, ${usage.length} billed, ` +
      `done ${((at - scene.killedAt) / 1000).toFixed(1)} s after the kill`
  )
}

// ── one retention code through two nodes at once ───────────────────────────────────────────────────

/**
 * Three of the mailed codes, each confirmed at the same moment on node A and on node B (archive and
 * delete, delete and archive, archive twice): one PUT acts and the other is refused with 409 and the
 * spec's message; the database holds one outcome: the request used once with the winner's option, one
 * audit record, the document archived or deleted once. Each side is its own process and pool.
 */
export async function retentionCodeAcrossNodes(
  cluster: Cluster,
  listener: MailListener,
  scene: CrashScene
): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const links = new Map<string, { code: string; user: string }>()
  for (const mail of listener.mails.slice(scene.mailsBefore)) {
    const link = confirmationLink(mail.text)
    if (link) links.set(link.code, link)
  }
  const codes = [...links.values()].slice(0, 3)
  expect(codes.length === 3, 'three mailed codes to use', codes.length)
  const options: [string, string][] = [
    ['archive', 'delete'],
    ['delete', 'archive'],
    ['archive', 'archive'],
  ]
  const used = text('documents.retention_code_used')
  const confirm = (node: Node, link: { code: string; user: string }, option: string) =>
    call(node, 'PUT', `/confirmretention?user=${link.user}`, { fields: { case: 'PUT', code: link.code, option } })
  for (const [i, link] of codes.entries()) {
    const [request] = await cluster.query<{ id: number; file_id: number }>(
      'SELECT id, file_id FROM documents_retention_requests WHERE code_hash = ?',
      [sha256(link.code)]
    )
    expect(request?.file_id, 'the code names a document', request)
    const fileId = Number(request.file_id)
    const [onA, onB] = await Promise.all([confirm(a, link, options[i]![0]), confirm(b, link, options[i]![1])])
    const statuses = [onA.status, onB.status].sort()
    expect(statuses[0] === 200 && statuses[1] === 409, 'one confirmation acts, the other is a 409', [onA, onB])
    const [won, lost] = onA.status === 200 ? [onA, onB] : [onB, onA]
    expect(
      lost.body?.status === 'fail' && lost.body.message === used,
      'the other is told the confirmation was made',
      lost.body
    )
    const option = won.body?.data?.option as string
    expect(option === (won === onA ? options[i]![0] : options[i]![1]), 'the winner’s answer names its option', won.body)

    const [after] = await cluster.query<{ used_at: Date | null; outcome: string | null }>(
      'SELECT used_at, outcome FROM documents_retention_requests WHERE id = ?',
      [request.id]
    )
    expect(
      after?.used_at !== null && after?.outcome === option,
      'the request is used once, with the winner’s option',
      after
    )
    const audits = await cluster.query<{ action: string }>(
      "SELECT action FROM audit_logs WHERE action IN ('documents.retention_archive', 'documents.retention_delete') AND subject_type = 'file' AND subject_id = ?",
      [String(fileId)]
    )
    expect(
      audits.length === 1 && audits[0]!.action === `documents.retention_${option}`,
      'one audit record, of the winner’s action',
      audits
    )
    const [file] = await cluster.query<{ archived_at: Date | null }>(
      'SELECT archived_at FROM documents_files WHERE id = ?',
      [fileId]
    )
    if (option === 'archive') expect(file?.archived_at, 'the document is archived', file)
    else expect(file === undefined, 'the document is deleted', file)
    for (const node of [a, b]) {
      const card = await call(
        node,
        'GET',
        `/confirmretention/document/${encodeURIComponent(link.code)}?user=${link.user}`
      )
      expect(card.status === 409, `the card is refused on ${node.name} once the code is used`, card)
    }
  }
}
