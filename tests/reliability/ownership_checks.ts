/**
 * The ownership table run across two app nodes (issue 22): every route with an id in its path is in the
 * table (ownership_table.ts) or named as institution-wide, or the check fails; then, route by route, the
 * refused calls go through both nodes with the database's fingerprint unchanged around them, and the
 * allowed ones through node B on objects made through node A.
 */
import mysql from 'mysql2/promise'
import { changedTables, checksummer } from './fuzz/checksum.mjs'
import type { Cluster, Node } from './cluster.ts'
import { Queue } from 'bullmq'
import { type Answer, expect } from './cluster_checks.ts'
import { CALLERS, ownershipScene, send } from './ownership_scene.ts'
import { ENTRIES, INSTITUTION_WIDE, OK, type Outcome } from './ownership_table.ts'
import { keyOf } from './texts.ts'

/**
 * Waits until the queue has no job waiting or running and the database stops changing (the work an
 * allowed call queued is done), a minute at most. A quiet second alone is not enough: an OCR run keeps
 * the database still for seconds while OCRmyPDF works, then writes its pages.
 */
async function settled(sums: { sum(): Promise<Record<string, string>> }, queue: Queue): Promise<void> {
  const deadline = Date.now() + 60_000
  let last = await sums.sum()
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000))
    const now = await sums.sum()
    const jobs = await queue.getJobCounts('waiting', 'active', 'prioritized')
    const busy = Object.values(jobs).some((n) => n > 0)
    if (!busy && changedTables(last, now).length === 0) return
    expect(Date.now() < deadline, 'the queue and the database settle within a minute', {
      tables: changedTables(last, now),
      jobs,
    })
    last = now
  }
}

const same = (answer: Answer, outcome: Outcome) =>
  outcome === OK
    ? answer.status >= 200 && answer.status < 300 && answer.body?.status !== 'fail'
    : answer.status === outcome.status && answer.body?.status === 'fail' && answer.body?.message === outcome.message

const describe = (answer: Answer) =>
  answer.status >= 200 && answer.status < 300 && answer.body?.status !== 'fail'
    ? `${answer.status} allowed`
    : `${answer.status} ${keyOf(answer.body?.message ?? answer.body)}`

/**
 * Every route with an id in its path, route × caller: the object made through node A, refused calls sent
 * through both nodes (the database's fingerprint unchanged around them), allowed ones through node B.
 */
export async function ownershipAcrossNodes(cluster: Cluster, log: (line: string) => void): Promise<void> {
  const [a, b] = cluster.apps as [Node, Node]
  const spec = (await (await fetch(`${a.url}/openapi.json`)).json()) as { paths: Record<string, object> }
  const routes = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`)
  )
  const withId = routes.filter((r) => r.includes('{'))
  const listed = [...ENTRIES.map((e) => e.route), ...Object.keys(INSTITUTION_WIDE)]
  expect(
    withId.every((r) => listed.includes(r)) && listed.every((r) => routes.includes(r)),
    'every route with an id is in the ownership table, and every line of it is a route',
    { missing: withId.filter((r) => !listed.includes(r)), gone: listed.filter((r) => !routes.includes(r)) }
  )
  const scene = await ownershipScene(cluster)
  const sums = await checksummer({
    database: 'mysql',
    mysqlConnection: () => mysql.createConnection({ ...cluster.mysql, database: cluster.database }),
  })
  const queue = new Queue('tramita', { connection: { url: cluster.redis.url }, prefix: cluster.prefix })
  const wrong: string[] = []
  let calls = 0
  try {
    // The scene's case queued its notices.
    await settled(sums, queue)
    for (const entry of ENTRIES) {
      const outcomes = entry.outcomes
      const method = entry.route.split(' ')[0]!
      scene.fresh = entry.fresh ? await entry.fresh(scene, a) : {}
      if (entry.fresh && entry.background) await settled(sums, queue)
      const refusedCall = entry.call(scene)
      const before = await sums.sum()
      for (const who of CALLERS.filter((w) => outcomes[w] !== OK)) {
        for (const node of [a, b]) {
          const answer = await send(node, method, refusedCall, scene.tokens[who])
          calls++
          if (!same(answer, outcomes[who])) wrong.push(`${entry.route} as ${who} on ${node.name}: ${describe(answer)}`)
        }
      }
      const changed = changedTables(before, await sums.sum())
      if (changed.length > 0) wrong.push(`${entry.route}: refused calls changed ${changed.join(', ')}`)
      for (const who of CALLERS.filter((w) => outcomes[w] === OK)) {
        if (entry.fresh) scene.fresh = await entry.fresh(scene, a)
        const answer = await send(b, method, entry.call(scene), scene.tokens[who])
        calls++
        if (!same(answer, OK)) wrong.push(`${entry.route} as ${who} on ${b.name}: ${describe(answer)}`)
      }
      if (entry.background) await settled(sums, queue)
      await entry.then?.(scene, a)
    }
  } finally {
    await sums.close()
    await queue.close()
  }
  log(
    `ownership table: ${ENTRIES.length} routes × ${CALLERS.length} callers, ${calls} calls, ${wrong.length} unexpected`
  )
  expect(wrong.length === 0, `answers other than the table's:\n  ${wrong.join('\n  ')}\n`)
}
