/**
 * Concurrency across nodes (issue 22): two people, each on a node of their own, doing at the same moment
 * what only one may do. One wins, the other gets a clear answer, and the database holds one outcome.
 * The same races on one process are in the functional suites (inbox, case_integrity, retention_confirm,
 * public_link); here each side of the race is another process with its own connection pool.
 */
import { createHash } from 'node:crypto'
import type { Cluster, Node } from './cluster.ts'
import { type Answer, call, expect, publishForm, signIn } from './cluster_checks.ts'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The supervisor on node A and the teacher on node B (both of the Académica area) claim one step. */
export async function claimAcrossNodes(cluster: Cluster, admin: string): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const formKey = await publishForm(cluster, admin, 'Reclamos entre nodos', 'Académica')
  const student = await signIn(a, 'student')
  const started = await call(a, 'POST', '/data/form/flows/process', {
    token: student,
    fields: { case: 'POST', data: formKey, flow_values: JSON.stringify({ nombre: 'Ana' }) },
  })
  expect(started.body?.status === 'done', 'the student starts a case', started)
  const supervisor = await signIn(a, 'supervisor')
  const teacher = await signIn(b, 'teacher')
  const pending = await call(b, 'GET', `/inside/inbox/pending?process=${encodeURIComponent(formKey)}`, {
    token: teacher,
  })
  const row = pending.body?.data?.rows?.[0]
  expect(row?.claimable === true, 'the step waits in the teacher’s inbox, claimable', pending.body)

  const [onA, onB] = await Promise.all([
    call(a, 'PUT', '/inside/inbox/claim', { token: supervisor, fields: { token: row.token } }),
    call(b, 'PUT', '/inside/inbox/claim', { token: teacher, fields: { token: row.token } }),
  ])
  const statuses = [onA.status, onB.status].sort()
  expect(statuses[0] === 200 && statuses[1] === 409, 'one claim wins, the other is a 409', statuses)
  const lost = onA.status === 409 ? onA : onB
  expect(
    lost.body?.status === 'fail' && lost.body.message === 'Otro miembro ya tomó este paso',
    'the loser is told another member took it',
    lost.body
  )
  const winner = onA.status === 200 ? 'supervisor' : 'teacher'
  const [task] = await cluster.query<{ username: string }>(
    `SELECT u.username FROM tasks t JOIN users u ON u.id = t.claimed_by JOIN cases c ON c.id = t.case_id
      JOIN forms f ON f.id = c.form_id WHERE t.status = 'pending' AND f.\`key\` = ?`,
    [formKey]
  )
  expect(task?.username === winner, 'the database holds the winner’s claim', { task, winner })
}

/**
 * Guesses at a share link's password sent to both nodes at once: no more than the link's limit (10 in a
 * window) are ever checked, the rest are throttled, and then the right password waits too.
 */
export async function linkGuessesAcrossNodes(cluster: Cluster): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const teacher = await signIn(a, 'teacher')
  const bytes = Buffer.from(`%PDF-1.4\n% guesses ${Date.now()}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`)
  const uploaded = await call(a, 'POST', '/api/documents/files', {
    token: teacher,
    file: { field: 'files', name: 'contrato.pdf', bytes },
  })
  const stored = uploaded.body?.data?.results?.[0]
  expect(stored?.status === 'stored', 'the teacher uploads a document on node A', uploaded.body)
  const made = await call(b, 'POST', '/api/documents/links', {
    token: teacher,
    fields: { file_id: String(stored.file.id), mode: 'password', password: 'Secreto#1' },
  })
  expect(made.body?.status === 'done', 'and makes a password link on node B', made.body)
  const link = made.body.data as { token: string; link: { id: number } }
  // The route's own limit per address (30 a minute, counted in Redis across nodes) is not reached.
  const guess = (node: Node, data: string): Promise<Answer> =>
    call(node, 'POST', `/getPublicFile/${encodeURIComponent(link.token)}`, {
      fields: { case: 'GET', type: 'password', data },
    })
  const LIMIT = 10
  const answers = await Promise.all(
    Array.from({ length: 2 * LIMIT }, (_, i) => guess(i % 2 === 0 ? a : b, sha256(`intento ${i}`)))
  )
  const count = (status: number) => answers.filter((x) => x.status === status).length
  expect(
    count(403) === LIMIT && count(429) === LIMIT,
    `${LIMIT} guesses checked and ${LIMIT} throttled`,
    answers.map((x) => x.status)
  )
  const right = await guess(b, sha256('Secreto#1'))
  expect(right.status === 429, 'the right password then waits as well', right.body)
  const rows = await cluster.query<{ outcome: string; n: number }>(
    'SELECT outcome, COUNT(*) AS n FROM documents_link_accesses WHERE link_id = ? GROUP BY outcome ORDER BY outcome',
    [link.link.id]
  )
  const counts = Object.fromEntries(rows.map((r) => [r.outcome, Number(r.n)]))
  expect(
    counts.wrong_password === LIMIT && counts.throttled === LIMIT + 1 && Object.keys(counts).length === 2,
    'each attempt recorded once, as checked or throttled',
    counts
  )
}
