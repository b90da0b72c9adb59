/**
 * Scale-out figures (issue 22), each beside a bare baseline measured in the same run:
 * - saves per second and their p99 with 1, 2 and 4 app processes on one MariaDB (100 people starting
 *   cases for BENCH_CLUSTER_SECONDS, every save accounted for afterwards: tests/reliability/load.ts),
 *   beside the same three rows (case, start entry, waiting step) written straight to MariaDB in one
 *   transaction per save by as many connections; and the scaling ratio of 2 and 4 processes to 1;
 * - socket fan-out across nodes: push_notify sent on node A until its user's socket on node B has it,
 *   beside a Redis publish until a subscriber has it;
 * - job throughput with 1 and 2 worker processes: the assignee notices of saved cases (a mail each,
 *   rendered and handed to the mailer, its effect claimed and recorded), queued while no worker runs,
 *   then worked off; beside a bare BullMQ worker in this process running as many empty jobs.
 * Run by `npm run bench` (BENCH_ONLY=cluster) through ts-run. On a two-core machine the database and
 * every process share the same cores: more processes cannot add throughput there, and the figure says so.
 */
import { randomBytes } from 'node:crypto'
import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import mysql from 'mysql2/promise'
import { Cluster } from '../reliability/cluster.ts'
import { listen, push, setScene } from '../reliability/cluster_checks.ts'
import { percentile, runLoad } from '../reliability/load.ts'

const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 15)
const PEOPLE = 100
const PUSHES = 100
const quiet = () => {}

type Row = Record<string, unknown>
const without = (row: Row, ...keys: string[]) =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)))

/** What one case start writes, copied from a stored case, written by `clients` connections for `seconds`. */
async function bareSaves(cluster: Cluster, formKey: string, clients: number, seconds: number) {
  const address = { ...cluster.mysql, database: cluster.database }
  const [sample] = await cluster.query<Row>(
    'SELECT c.* FROM cases c JOIN forms f ON f.id = c.form_id WHERE f.`key` = ? LIMIT 1',
    [formKey]
  )
  const activities = await cluster.query<Row>('SELECT * FROM activities WHERE case_id = ?', [sample.id])
  const tasks = await cluster.query<Row>('SELECT * FROM tasks WHERE case_id = ?', [sample.id])
  const caseRow = without(sample, 'id')
  const ms: number[] = []
  const deadline = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const conn = await mysql.createConnection(address)
      try {
        while (Date.now() < deadline) {
          const at = performance.now()
          await conn.beginTransaction()
          const code = `B${randomBytes(6).toString('hex')}`.slice(0, 16)
          const [inserted] = await conn.query('INSERT INTO cases SET ?', [{ ...caseRow, code }])
          const caseId = (inserted as { insertId: number }).insertId
          for (const task of tasks)
            await conn.query('INSERT INTO tasks SET ?', [{ ...without(task, 'id'), case_id: caseId }])
          for (const entry of activities) {
            await conn.query('INSERT INTO activities SET ?', [{ ...without(entry, 'id', 'task_id'), case_id: caseId }])
          }
          await conn.commit()
          ms.push(performance.now() - at)
        }
      } finally {
        await conn.end()
      }
    })
  )
  return { perSecond: ms.length / seconds, p99: percentile(ms, 99) }
}

/** push_notify on node A until the starter's socket on node B has it, one at a time. */
async function fanOut(cluster: Cluster): Promise<number[]> {
  const [a, b] = cluster.apps
  const scene = await setScene(cluster)
  const onB = await listen(b, scene.student.b)
  const ms: number[] = []
  try {
    for (let i = 0; i < PUSHES; i++) {
      const at = performance.now()
      const sent = await push(a, scene)
      if (sent.body?.status !== 'done') throw new Error(`push_notify refused: ${JSON.stringify(sent.body)}`)
      const title = `aviso ${scene.pushes}`
      while (!onB.messages.some((m) => m.case === 'push_notify' && m.data?.title === title)) {
        await new Promise((r) => setImmediate(r))
      }
      ms.push(performance.now() - at)
    }
  } finally {
    onB.ws.close()
  }
  return ms
}

/** A Redis publish until a subscriber on another connection has it, one at a time. */
async function pubSub(url: string): Promise<number[]> {
  const pub = new Redis(url)
  const sub = new Redis(url)
  await sub.subscribe('bench:fanout')
  const ms: number[] = []
  try {
    for (let i = 0; i < PUSHES; i++) {
      const at = performance.now()
      const got = new Promise<void>((done) => sub.once('message', () => done()))
      await pub.publish('bench:fanout', `m${i}`)
      await got
      ms.push(performance.now() - at)
    }
  } finally {
    pub.disconnect()
    sub.disconnect()
  }
  return ms
}

const NOTICES = 600

/** Cases saved while no worker runs (their notices wait in the queue), then `workers` workers started. */
async function jobThroughput(workers: number): Promise<number> {
  const cluster = await Cluster.start({ apps: 1, workers: 0, env: { AUTH_RATE_PER_MINUTE: '1000000' }, log: quiet })
  try {
    // Saves for a few seconds, by enough people to make NOTICES or more.
    const load = await runLoad(cluster, { people: 50, seconds: 3, faults: [], log: quiet })
    const total = load.done
    if (total < NOTICES / 2) throw new Error(`only ${total} cases saved`)
    const done = async () =>
      Number(
        (
          await cluster.query<{ n: number }>(
            "SELECT COUNT(*) AS n FROM job_effects WHERE effect_key LIKE 'task-notice:%' AND claimed_until IS NULL"
          )
        )[0].n
      )
    const nodes = []
    for (let i = 0; i < workers; i++) nodes.push(await cluster.add('worker'))
    await Promise.all(nodes.map((node) => cluster.waitReady(node)))
    const at = performance.now()
    const before = await done()
    let now = before
    while (now < total) {
      await new Promise((r) => setTimeout(r, 100))
      now = await done()
    }
    return (now - before) / ((performance.now() - at) / 1000)
  } finally {
    await cluster.stop()
  }
}

/** Empty jobs through a BullMQ worker in this process (concurrency 5, as ours), on a Redis of the cluster's. */
async function bareJobs(url: string, count: number): Promise<number> {
  const connection = { url, maxRetriesPerRequest: null }
  const name = `bench-${randomBytes(4).toString('hex')}`
  const queue = new Queue(name, { connection })
  await queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: 'empty', data: { i } })))
  let left = count
  const at = performance.now()
  const finished = new Promise<void>((done) => {
    const worker = new Worker(
      name,
      async () => {
        if (--left === 0) setImmediate(() => void worker.close().then(done))
      },
      { connection, concurrency: 5 }
    )
  })
  await finished
  const rate = count / ((performance.now() - at) / 1000)
  await queue.obliterate({ force: true })
  await queue.close()
  return rate
}

console.log('━━ jobs: assignee notices worked off by 1 and 2 worker processes ━━')
const perWorkers: Record<number, number> = {}
for (const workers of [1, 2]) perWorkers[workers] = await jobThroughput(workers)
const redisForBare = await Cluster.start({ apps: 1, workers: 0, log: quiet })
const bareRate = await bareJobs(redisForBare.redis.url, NOTICES).finally(() => redisForBare.stop())
for (const workers of [1, 2]) {
  console.log(
    `${workers} worker(s): ${perWorkers[workers].toFixed(1)} notices/s; bare BullMQ worker, empty jobs: ${bareRate.toFixed(0)}/s; ` +
      `ratio ${(perWorkers[workers] / bareRate).toFixed(3)}`
  )
}
console.log(`scaling ratio, notices/s: 2 workers / 1 = ${(perWorkers[2] / perWorkers[1]).toFixed(2)}`)

console.log('━━ scale-out: app processes on one MariaDB ━━')
const saves: Record<number, number> = {}
for (const apps of [1, 2, 4]) {
  const cluster = await Cluster.start({
    apps,
    workers: 1,
    env: { AUTH_RATE_PER_MINUTE: '1000000', PUSH_NOTIFY_PER_MINUTE: '1000000' },
    log: quiet,
  })
  try {
    const load = await runLoad(cluster, { people: PEOPLE, seconds: SECONDS, faults: [], log: quiet })
    const bare = await bareSaves(cluster, load.formKey, PEOPLE, SECONDS)
    saves[apps] = load.savesPerSecond
    console.log(
      `${apps} app process(es), ${PEOPLE} people: ${load.savesPerSecond.toFixed(1)} saves/s, p99 ${load.p99} ms ` +
        `(${load.done} accounted for); bare MariaDB transactions: ${bare.perSecond.toFixed(1)}/s, p99 ${bare.p99.toFixed(0)} ms; ` +
        `ratio ${(load.savesPerSecond / bare.perSecond).toFixed(2)}`
    )
    if (apps === 2) {
      const across = await fanOut(cluster)
      const redis = await pubSub(cluster.redis.url)
      console.log(
        `socket fan-out node A → node B: p50 ${percentile(across, 50).toFixed(1)} ms, p95 ${percentile(across, 95).toFixed(1)} ms; ` +
          `Redis publish → subscriber: p50 ${percentile(redis, 50).toFixed(2)} ms; ratio (p50) ${(percentile(across, 50) / percentile(redis, 50)).toFixed(1)}`
      )
    }
  } finally {
    await cluster.stop()
  }
}
console.log(
  `scaling ratio, saves/s: 2 processes / 1 = ${(saves[2] / saves[1]).toFixed(2)}, 4 / 1 = ${(saves[4] / saves[1]).toFixed(2)}`
)
