/**
 * Benchmarks of the process engine on MariaDB (issue 5), run by `npm run bench` (tests/bench/run.mjs)
 * as the parts `saves` and `steps`. One server (`tramita serve` on a fresh database tramita_bench_<pid>,
 * dropped at the end) serves both; tests/bench/process_setup.ts publishes their forms, and the cases
 * are opened through POST /data/form/flows/process by the demo admin signed in through PUT /data/login.
 *
 * (c) saves: the enter save route with a 100-field form (conditions and formulas run in the server's
 *     sandbox pool), 50 clients, beside a bare route through the same stack (POST
 *     /data/config/infocompany with case=GET: body parser, call contract, one MariaDB read).
 * (d) steps: completed steps per second through the enter and approve routes (a small form without
 *     scripts), beside a bare mysql2 transaction making the same writes on the same tables.
 *
 * Every timed save completes a distinct case's pending task (a second save of one task gets 409), and
 * each process leads back to a step of the same case, so one set of cases serves every pass.
 *
 * Besides rates, each line has the CPU time per operation of the process doing the work (the server;
 * for the bare transaction, this process) and of the local MariaDB server (all its clients count).
 * Other load on the machine disturbs them much less than the rates, and on 2 cores shared by client,
 * server and database the rates follow them: each round trip costs CPU on both sides.
 */
import { spawnSync } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import mysql from 'mysql2/promise'
import { MARIADB as DB, signInAdmin, startMariadbTramita } from './server.mjs'
import { target } from './targets.ts'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const NODE = join(ROOT, 'node_modules', '.bin', 'node')
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** Cases of each part: every timed pass saves each once. */
const SAVE_CASES = Number(process.env.BENCH_SAVE_CASES ?? 1_000)
const STEP_CASES = Number(process.env.BENCH_STEP_CASES ?? 2_000)
/** Timed passes of each measurement (each saves every case once), alternated with its baseline's. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
/** The app's pool (knex's default, max 10): the bare transaction gets as many connections. */
const POOL = 10
const PASSWORD = 'Tramita#2026'

const DATABASE = `tramita_bench_${process.pid}`
// A known APP_KEY lets the bench sign case keys and task tokens itself, as the server does for links.
const APP_KEY = randomBytes(32).toString('base64url')
const signId = (purpose, id) =>
  `${id}.${createHmac('sha256', APP_KEY).update(`tramita:${purpose}:${id}`).digest('base64url').slice(0, 22)}`

const BOUNDARY = 'tramitabench'
/** A multipart form-data call, encoded once so the timed loop only writes bytes. */
function multipart(headers, fields) {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  )
  const body = Buffer.from(parts.join('') + `--${BOUNDARY}--\r\n`)
  return {
    method: 'POST',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': body.length },
    body,
  }
}

/** One call; resolves with the envelope's data, rejects on anything but `done`. */
function call(agent, url, { method, headers, body }) {
  return new Promise((resolveCall, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        const answer = JSON.parse(text)
        if (answer.status !== 'done') reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`))
        else resolveCall(answer.data)
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** CPU time (user + system, every thread) a process has used, in ms, from /proc; NaN elsewhere. */
function cpuMs(pid) {
  const file = `/proc/${pid}/stat`
  if (!existsSync(file)) return NaN
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10 // utime + stime, in 1/100 s
}

/** The local MariaDB server's pid, when it runs here (its CPU counts every client's, not only ours). */
const MARIADB_PID = Number(
  spawnSync('pgrep', ['-o', '-x', 'mariadbd|mysqld'], { encoding: 'utf8' }).stdout?.trim() || Number.NaN
)

/** Runs `work(item)` for every item from CLIENTS loops at once; times each and measures CPU used. */
async function drive(items, work, pid = process.pid) {
  const latencies = []
  let next = 0
  const cpuBefore = cpuMs(pid)
  const dbBefore = cpuMs(MARIADB_PID)
  const started = performance.now()
  async function loop() {
    while (next < items.length) {
      const item = items[next++]
      const t = performance.now()
      await work(item)
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CLIENTS, items.length) }, loop))
  const seconds = (performance.now() - started) / 1000
  return { latencies, seconds, cpu: cpuMs(pid) - cpuBefore, dbCpu: cpuMs(MARIADB_PID) - dbBefore }
}

/** Several runs of one thing as one figure: rate, latency percentiles, CPU per operation. */
function summary(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b)
  const count = latencies.length
  const sum = (key) => runs.reduce((total, r) => total + r[key], 0)
  const pct = (p) => latencies[Math.min(count - 1, Math.floor(count * p))]
  return {
    count,
    rate: count / sum('seconds'),
    p50: pct(0.5),
    p99: pct(0.99),
    cpu: sum('cpu') / count,
    dbCpu: sum('dbCpu') / count,
  }
}

/**
 * Runs the two measurements ROUNDS times, in alternating order (a, b, then b, a, ...), so load that
 * comes and goes on the machine weighs on both alike.
 */
async function alternate(a, b) {
  const runs = { a: [], b: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? ['a', 'b'] : ['b', 'a']) runs[which].push(await { a, b }[which]())
  }
  return { a: summary(runs.a), b: summary(runs.b) }
}

/** The server on a fresh database (migrated, demo-seeded) and the bench forms published. */
async function startServer() {
  const server = await startMariadbTramita({ database: DATABASE, password: PASSWORD, appKey: APP_KEY })
  const setup = spawnSync(NODE, ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'process_setup.ts')], {
    cwd: join(ROOT, 'core', 'server'),
    env: server.env,
    encoding: 'utf8',
  })
  const line = setup.stdout?.split('\n').find((l) => l.startsWith('{"saves"'))
  if (setup.status !== 0 || !line) {
    await server.stop()
    throw new Error(`set-up failed:\n${setup.stdout}\n${setup.stderr}`)
  }
  return { ...server, forms: JSON.parse(line) }
}

/** Opens `count` cases of the form through case new; each gets its first (fill) task. */
async function openCases(bench, form, count) {
  const open = multipart(
    { token: bench.token },
    { case: 'POST', data: form.key, flow_values: JSON.stringify(form.values) }
  )
  await drive(Array.from({ length: count }), () => call(bench.agent, `${bench.origin}/data/form/flows/process`, open))
}

/** The pending task of each of the form's cases. */
async function pendingTasks(bench, form) {
  const [rows] = await bench.db.query(
    `select t.id, t.case_id as caseId, t.kind from tasks t join cases c on c.id = t.case_id
     where c.form_id = ? and t.status = 'pending' order by t.case_id`,
    [form.formId]
  )
  return rows
}

/** Saves so far: the value each enter save changes, so every save writes a new document. */
let saveCount = 0

/**
 * One pass of saves, one per case: the enter route with the form's values (`field` changed) or the
 * approve route with the decision. The calls are encoded before the clock starts.
 */
async function savePass(bench, form, field, limit = Infinity) {
  const tasks = (await pendingTasks(bench, form)).slice(0, limit)
  const calls = tasks.map((task) => {
    const fields = {
      case: 'POST',
      data: form.key,
      key_process: signId('case', task.caseId),
      token: signId('task', task.id),
    }
    if (task.kind === 'approve') fields.decision = JSON.stringify({ id: 'otra' })
    else fields.flow_values = JSON.stringify({ ...form.values, [field]: saveCount++ % 100_000 })
    const route = task.kind === 'approve' ? 'decision' : 'asignar'
    return { url: `${bench.origin}/data/form/${route}/process/info`, call: multipart({ token: bench.token }, fields) }
  })
  return drive(calls, (c) => call(bench.agent, c.url, c.call), bench.pid)
}

const fixed = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '?')
const row = (label, r, unit) =>
  `${label.padEnd(46)} ${r.rate.toFixed(0).padStart(6)} ${unit.padEnd(7)} p50 ${fixed(r.p50).padStart(6)} ms` +
  `  p99 ${fixed(r.p99).padStart(6)} ms  CPU ${fixed(r.cpu, 2)} + MariaDB ${fixed(r.dbCpu, 2)} ms/op`

/** (c) the enter save of the 100-field form beside the bare route, same server, same clients. */
async function benchSaves(bench, form) {
  console.log(`━━ saves: enter save, 100-field form, MariaDB, ${CLIENTS} clients ━━`)
  await openCases(bench, form, SAVE_CASES)
  await savePass(bench, form, 'c1', 300) // warm-up: JIT, pools, sandbox workers, script cache
  const bareCall = multipart({}, { case: 'GET' })
  const bareRoute = () => call(bench.agent, `${bench.origin}/data/config/infocompany`, bareCall)
  await drive(Array.from({ length: 2_000 }), bareRoute)
  const { a: saves, b: bare } = await alternate(
    () => savePass(bench, form, 'c1'),
    () => drive(Array.from({ length: 5_000 }), bareRoute, bench.pid)
  )
  // The formulas ran in the server's sandbox: c97 = c1 + c5 * 2 and c81 = c97 + c93 are stored.
  const [[stored]] = await bench.db.query('select `values` from cases where form_id = ? limit 1', [form.formId])
  const v = JSON.parse(stored.values)
  if (v.c97 !== v.c1 + v.c5 * 2 || v.c81 !== v.c97 + v.c93) throw new Error('the formulas did not run on the server')
  console.log(row(`POST /data/form/asignar/process/info (${saves.count})`, saves, 'saves/s'))
  console.log(row(`bare route POST /data/config/infocompany (${bare.count})`, bare, 'req/s'))
  console.log(`saves ratio (saves/s / bare route req/s): ${(saves.rate / bare.rate).toFixed(3)}`)
  console.log(`saves p99 ratio (save / bare route): ${(saves.p99 / bare.p99).toFixed(1)}`)
  console.log(`server CPU ratio (save / bare route): ${fixed(saves.cpu / bare.cpu)}`)
}

/**
 * The bare ceiling of (d): one step's writes in a mysql2 transaction, as the engine makes them (lock
 * the case row, claim the task, insert the next task and two log entries, rewrite the values JSON).
 */
async function bareStep(pool, task) {
  const conn = await pool.getConnection()
  try {
    await conn.beginTransaction()
    const [[found]] = await conn.query('select id, state, `values` from cases where id = ? for update', [task.caseId])
    const now = new Date()
    const [claimed] = await conn.query(
      "update tasks set status = 'done', done_by = 1, claimed_by = 1, done_at = ? where id = ? and status = 'pending'",
      [now, task.id]
    )
    if (claimed.affectedRows !== 1) throw new Error(`task ${task.id} was not pending`)
    const next = task.kind === 'approve' ? { step: 'llenar', kind: 'fill' } : { step: 'aprobar', kind: 'approve' }
    const [inserted] = await conn.query(
      `insert into tasks (case_id, step_id, kind, assignee_type, assignee_id, assignee_text, status, created_at)
       values (?, ?, ?, 'user', 1, 'Ana Administradora', 'pending', ?)`,
      [task.caseId, next.step, next.kind, now]
    )
    await conn.query(
      `insert into activities (case_id, task_id, type, event, label, color, assignees, type_asignador, user_id, created_at)
       values (?, ?, 'assign', 'performed', 'Llenar', '', 'Ana Administradora', 'user', 1, ?),
              (?, ?, 'assign', 'assigned', 'Aprobar', '', 'Ana Administradora', 'user', 1, ?)`,
      [task.caseId, task.id, now, task.caseId, inserted.insertId, now]
    )
    const values = { ...JSON.parse(found.values), dias: task.id % 1000 }
    await conn.query("update cases set state = ?, status = 'open', `values` = ?, updated_at = ? where id = ?", [
      found.state,
      JSON.stringify(values),
      now,
      task.caseId,
    ])
    await conn.commit()
  } catch (error) {
    await conn.rollback()
    throw error
  } finally {
    conn.release()
  }
}

/** (d) completed steps per second through the save routes beside the bare transaction. */
async function benchSteps(bench, form) {
  console.log(`━━ steps: completed steps through the save routes, MariaDB, ${CLIENTS} clients ━━`)
  await openCases(bench, form, STEP_CASES)
  await savePass(bench, form, 'dias', 500) // warm-up
  const pool = mysql.createPool({ ...DB, database: DATABASE, connectionLimit: POOL, charset: 'utf8mb4' })
  const { a: steps, b: bare } = await alternate(
    () => savePass(bench, form, 'dias'),
    async () => drive(await pendingTasks(bench, form), (task) => bareStep(pool, task))
  )
  await pool.end()
  console.log(row(`enter + approve routes (${steps.count} steps)`, steps, 'steps/s'))
  console.log(row(`bare mysql2 transaction, ${POOL} connections (${bare.count})`, bare, 'tx/s'))
  console.log(`steps/s through the routes: ${steps.rate.toFixed(0)} (target >= 600: ${target(steps.rate >= 600)})`)
  console.log(
    `steps ratio (routes / bare transaction): ${(steps.rate / bare.rate).toFixed(2)} (target >= 0.5: ${target(steps.rate / bare.rate >= 0.5)})`
  )
  console.log(`CPU ratio (server per step / bare client per transaction): ${fixed(steps.cpu / bare.cpu)}`)
  console.log(`MariaDB CPU ratio (per step / per bare transaction): ${fixed(steps.dbCpu / bare.dbCpu)}`)
}

/** Runs the selected parts on one server and database; both are removed at the end. */
export async function processBench({ saves, steps }) {
  const server = await startServer()
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
  const db = await mysql.createConnection({ ...DB, database: DATABASE })
  try {
    const bench = {
      agent,
      db,
      origin: server.origin,
      pid: server.pid,
      token: await signInAdmin(server.origin, PASSWORD),
    }
    if (saves) await benchSaves(bench, server.forms.saves)
    if (steps) await benchSteps(bench, server.forms.steps)
  } catch (error) {
    if (server.exit()) console.error(`the server stopped during the bench (${server.exit()})`)
    throw error
  } finally {
    agent.destroy()
    await db.end()
    await server.stop()
  }
}
