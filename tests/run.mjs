#!/usr/bin/env node
/**
 * `npm test`: static checks, the web build, then every Japa suite against real services — the
 * database suites on SQLite and on MariaDB, the queue and socket suites on Redis, the devices agent's
 * drivers against CUPS's test printer and SANE's test scanner, the browser suite in Debian's Chromium.
 * Ends with one line `N passed, N failed` summing all of it; exits non-zero on any failure. Independent
 * steps run side by side (`schedule` below). TRAMITA_TEST_ONLY=name,name runs a subset (names as printed
 * below); TRAMITA_TEST_FILES=a,b runs only the suite files whose names contain a or b.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const SERVER = join(ROOT, 'core', 'server')
const BIN = join(ROOT, 'node_modules', '.bin')
const PATH = `${BIN}:${process.env.PATH}`
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const MYSQL = {
  DB_CONNECTION: 'mysql',
  DB_HOST: process.env.TEST_DB_HOST ?? '127.0.0.1',
  DB_PORT: process.env.TEST_DB_PORT ?? '3306',
  DB_USER: process.env.TEST_DB_USER ?? 'root',
  DB_PASSWORD: process.env.TEST_DB_PASSWORD ?? '',
  DB_DATABASE: `tramita_test_${process.pid}`,
}

// The browser suite mostly waits (on pages, Chromium, timers; 0.4 of one core busy in one process):
// four processes share its files, each with its own server, database and directory (TRAMITA_SHARD,
// core/server/tests/helpers/shard.ts); one when TRAMITA_TEST_FILES narrows it to a few files. Four,
// not three: on a loaded two-core machine a third of the suite took 15 min (the CI at 57170b4).
const E2E_SHARDS = process.env.TRAMITA_TEST_FILES ? [1] : [1, 2, 3, 4]

/**
 * Each step, with what the scheduler below needs to know of it: `est`, its seconds on a loaded
 * two-core machine (the longest chains start first); `cores`, how much of the CPU it keeps busy on
 * average (a browser part or a CLI suite mostly waits on pages, timers and the processes it starts; a
 * MariaDB suite also loads the database server, which its own CPU count leaves out); `after`, the
 * steps it needs done (the browser suites and the fuzzer serve the web build). `est` is each step's
 * wall seconds in the fresh-clone CIs at d06dbd7 and 6920234 on a slow two-core machine; `cores`
 * stays well above its CPU over its wall there (a browser part uses 0.2). That ratio is measured
 * under contention and understates what a step needs: with `cores` set to it (c5b3205) twice as many
 * steps ran at once, the browser parts took 650-700 s instead of 350-440, and a sandbox test whose
 * script has a deadline failed. The fuzzer and the load run take a whole core: their checks have time
 * limits (an answer within 5 s).
 * The CLI suites may run beside everything: make:plugin's scaffold is a tmp-* folder that neither the
 * type check, ESLint nor a suite's files take in (core/server/tests/helpers/enabled_plugin_files.ts),
 * and the MariaDB suites each have a database of their own, the migrations locking per database
 * (core/server/app/services/migrations.ts).
 */
const steps = [
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'], est: 240, cores: 0.8 },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'], est: 90, cores: 1 },
  { name: 'web-build', command: ['npm', 'run', '--silent', 'build:web'], est: 20, cores: 1 },
  { name: 'unit', suite: 'unit', est: 70, cores: 1 },
  { name: 'sandbox', suite: 'sandbox', est: 150, cores: 0.7 },
  { name: 'functional-sqlite', suite: 'functional', est: 400, cores: 0.6 },
  { name: 'functional-mariadb', suite: 'functional', env: MYSQL, est: 480, cores: 0.7 },
  { name: 'queue-redis', suite: 'queue', env: { REDIS_URL }, est: 45, cores: 0.3 },
  { name: 'sockets-redis', suite: 'sockets', env: { REDIS_URL }, est: 35, cores: 0.3 },
  // The devices suite mostly waits on its printers and scanner.
  { name: 'devices', suite: 'devices', est: 35, cores: 0.2 },
  { name: 'cli-sqlite', suite: 'cli', est: 380, cores: 0.6 },
  {
    name: 'cli-mariadb-redis',
    suite: 'cli',
    env: { ...MYSQL, DB_DATABASE: `${MYSQL.DB_DATABASE}_cli`, REDIS_URL },
    est: 500,
    cores: 0.5,
  },
  // ≥ 10,000 malformed requests from /openapi.json to every route as every role (tests/reliability/parts/fuzz.mjs).
  {
    name: 'reliability-fuzz',
    command: ['node', 'tests/reliability/run.mjs', '--bounded', 'fuzz'],
    est: 80,
    cores: 1,
    after: ['web-build'],
  },
  // 2 app nodes and 2 workers on private MariaDB and Redis servers and s3rver (tests/reliability/parts/cluster.mjs;
  // ~100 s, 60 of them waiting for a killed worker's jobs to come back).
  {
    name: 'reliability-cluster',
    command: ['node', 'tests/reliability/run.mjs', '--bounded', 'cluster'],
    est: 300,
    cores: 0.5,
  },
  // 200 people saving through 2 app nodes while one and a worker are killed and Redis and MariaDB restart;
  // every save and its notice mail accounted for (tests/reliability/parts/load.mjs: 20 s of load keeping both
  // cores busy, then ~60 s of the queue working off the notices, the lost ones queued again from the outbox).
  // After the cluster part: each starts a cluster of its own (4 processes, MariaDB, Redis) and checks times.
  // The CI at d80325d, on a slow machine, failed both early (93 s and 71 s) without its log keeping why.
  {
    name: 'reliability-load',
    command: ['node', 'tests/reliability/run.mjs', '--bounded', 'load'],
    est: 120,
    cores: 1,
    after: ['reliability-cluster'],
  },
  ...E2E_SHARDS.map((k) => ({
    name: `e2e-chromium-${k}`,
    group: 'e2e-chromium',
    suite: 'e2e',
    env: E2E_SHARDS.length > 1 ? { TRAMITA_SHARD: `${k}/${E2E_SHARDS.length}` } : {},
    est: 1600 / E2E_SHARDS.length,
    cores: 0.4,
    after: ['web-build'],
  })),
]

/** The CPU the running steps may keep busy together: the cores, and a little over (`cores` are averages). */
const CAPACITY = Number(process.env.TRAMITA_TEST_CORES ?? availableParallelism()) + 0.5

const only = process.env.TRAMITA_TEST_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean)
// TRAMITA_TEST_FILES=uploads,engine narrows each Japa suite to the files whose names contain one of them.
const fileFilter = (process.env.TRAMITA_TEST_FILES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .flatMap((f) => ['--files', f])
const results = []
const started = Date.now()
/** No step takes this long when it works (the longest, a browser part, about 5 min): past it, it is killed and fails. */
const STEP_LIMIT_MS = 15 * 60_000
/** The process groups of the running steps: an interrupted run stops them too. */
const groups = new Set()
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const pid of groups) killGroup(pid)
    process.exit(130)
  })
}
/** A directory the processes of one sharded suite share (tests/e2e/a11y.ts marks the screens checked there). */
const sharedDirs = new Map()

const selected = steps.filter((step) => !only || only.includes(step.name) || only.includes(step.group))
await schedule(selected, selected.length === 1)
for (const dir of sharedDirs.values()) rmSync(dir, { recursive: true, force: true })
results.sort((a, b) => steps.findIndex((s) => s.name === a.name) - steps.findIndex((s) => s.name === b.name))
if (process.env.TRAMITA_RECORD_WEIGHTS) recordWeights()

/**
 * Runs the steps, each as soon as the steps it comes after are done and its cores fit in CAPACITY
 * (or nothing else runs); among those ready, the one heading the longest chain first.
 */
async function schedule(list, live) {
  const names = new Set(list.map((step) => step.name))
  const chain = new Map()
  const chainOf = (step) => {
    if (!chain.has(step.name)) {
      const next = list.filter((other) => other.after?.includes(step.name))
      chain.set(step.name, step.est + Math.max(0, ...next.map(chainOf)))
    }
    return chain.get(step.name)
  }
  const waiting = [...list].sort((a, b) => chainOf(b) - chainOf(a))
  const running = new Set()
  const done = new Set()
  const fits = (step) => {
    if ((step.after ?? []).some((name) => names.has(name) && !done.has(name))) return false
    const busy = [...running].reduce((sum, other) => sum + other.cores, 0)
    return running.size === 0 || busy + step.cores <= CAPACITY
  }
  await new Promise((finished) => {
    const startReady = () => {
      for (const step of [...waiting]) {
        if (!fits(step)) continue
        waiting.splice(waiting.indexOf(step), 1)
        running.add(step)
        void runStep(step, live).then((result) => {
          results.push(result)
          running.delete(step)
          done.add(step.name)
          startReady()
        })
      }
      if (running.size === 0 && waiting.length === 0) finished()
    }
    startReady()
  })
}

function sharedDir(group) {
  if (!sharedDirs.has(group)) sharedDirs.set(group, mkdtempSync(join(tmpdir(), `tramita-${group}-shared-`)))
  return sharedDirs.get(group)
}

/** Runs one step: a command, or a Japa suite in core/server with its own data folder and port. */
async function runStep(step, live) {
  const stepStarted = Date.now()
  if (step.command) {
    // A command that counts its own checks (the reliability runner) leaves them in TRAMITA_TEST_SUMMARY.
    const dir = mkdtempSync(join(tmpdir(), `tramita-${step.name}-`))
    const summaryFile = join(dir, 'summary.json')
    const env = { ...process.env, PATH, TRAMITA_TEST_SUMMARY: summaryFile }
    const { code: run, cpu, output } = await spawnStep(step, step.command, { cwd: ROOT, env }, live)
    const counted = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : null
    rmSync(dir, { recursive: true, force: true })
    const ok = run === 0
    const summary = counted
      ? {
          passed: counted.passed,
          failed: ok ? counted.failed : Math.max(1, counted.failed),
          skipped: counted.skipped ?? 0,
        }
      : { passed: ok ? 1 : 0, failed: ok ? 0 : 1 }
    return { name: step.name, ...summary, ms: Date.now() - stepStarted, cpu, why: whyFailed(summary, output) }
  }
  const dataDir = mkdtempSync(join(tmpdir(), `tramita-${step.name}-`))
  const summaryFile = join(dataDir, 'summary.json')
  const node = process.execPath === join(BIN, 'node') ? process.execPath : join(BIN, 'node')
  const {
    code: status,
    cpu,
    output,
  } = await spawnStep(
    step,
    [node, '--import', '@tramita/ts-run', 'bin/test.ts', step.suite, ...fileFilter],
    {
      cwd: SERVER,
      env: {
        ...process.env,
        PATH,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        TRAMITA_DATA_DIR: dataDir,
        TRAMITA_TEST_SUMMARY: summaryFile,
        DB_CONNECTION: 'sqlite',
        REDIS_URL: '',
        ...(step.group ? { TRAMITA_SHARED_DIR: sharedDir(step.group) } : {}),
        ...step.env,
      },
    },
    live
  )
  let summary = { passed: 0, failed: 1, skipped: 0 }
  if (existsSync(summaryFile)) {
    const s = JSON.parse(readFileSync(summaryFile, 'utf8'))
    summary = {
      passed: s.passed,
      failed: s.failed,
      skipped: s.skipped + s.todo,
      durations: s.durations ?? {},
      titles: s.failedTestsTitles ?? [],
    }
    if (s.total === 0) summary.failed += 1 // a suite that ran nothing is a broken suite
  }
  if (status !== 0 && summary.failed === 0) summary.failed = 1
  rmSync(dataDir, { recursive: true, force: true })
  return { name: step.name, ...summary, ms: Date.now() - stepStarted, cpu, why: whyFailed(summary, output) }
}

/**
 * Spawns a step and resolves with its exit status and the CPU seconds it and every process it waited
 * for used (bash's `times`); its output goes to ours live, or whole at its end. The step runs in its own
 * process group, so a step past STEP_LIMIT_MS is killed with everything it started.
 */
function spawnStep(step, [command, ...args], options, live) {
  const at = () => `${((Date.now() - started) / 1000).toFixed(0)} s`
  if (live) console.log(`\n━━ ${step.name} (at ${at()}) ━━`)
  const cpuFile = join(mkdtempSync(join(tmpdir(), 'tramita-cpu-')), 'times')
  const wrapped = ['bash', '-c', '"$@"; s=$?; times > "$0"; exit $s', cpuFile, command, ...args]
  return new Promise((done) => {
    const child = spawn(wrapped[0], wrapped.slice(1), {
      ...options,
      detached: true,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    })
    groups.add(child.pid)
    const chunks = []
    const limit = setTimeout(() => {
      const note = `\n[run] ${step.name} still running after ${STEP_LIMIT_MS / 60_000} min: killed, counted failed\n`
      if (live) console.log(note)
      else chunks.push(Buffer.from(note))
      killGroup(child.pid)
    }, STEP_LIMIT_MS)
    child.stdout?.on('data', (chunk) => chunks.push(chunk))
    child.stderr?.on('data', (chunk) => chunks.push(chunk))
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)))
    child.on('close', (code) => {
      clearTimeout(limit)
      groups.delete(child.pid)
      if (!live) {
        console.log(`\n━━ ${step.name} (ended at ${at()}) ━━`)
        process.stdout.write(Buffer.concat(chunks))
      }
      const cpu = readCpu(cpuFile)
      rmSync(join(cpuFile, '..'), { recursive: true, force: true })
      done({ code: code ?? 1, cpu, output: live ? '' : Buffer.concat(chunks).toString('utf8') })
    })
  })
}

/** The children's user + system seconds from bash's `times` (its second line: `1m2.5s 0m3.1s`). */
function readCpu(file) {
  if (!existsSync(file)) return undefined
  const line = readFileSync(file, 'utf8').trim().split('\n')[1] ?? ''
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s))
  return seconds.length === 2 ? seconds[0] + seconds[1] : undefined
}

/**
 * A failed step's failed tests (Japa's titles) and the output from Japa's ERRORS or else its last failure mark
 * (the reliability runner's ✖, a crash, tsc's errors, a kill), or its last lines when nothing is marked: at
 * most 40 lines of 240 characters, without colours or library frames. Empty for a step that passed or printed live.
 */
function whyFailed(summary, output) {
  if (summary.failed === 0 || !output) return ''
  const failure = /✖|✘|crashed|error TS\d+|still running after/
  // eslint-disable-next-line no-control-regex -- the terminal's colour codes
  const colours = /\u001b\[[0-9;]*m/g
  const lines = output.split('\n').map((line) => line.replace(colours, '').trimEnd())
  while (lines.length > 0 && lines.at(-1) === '') lines.pop()
  // Japa lists each failure's error under ERRORS at its end; other steps mark their last failure.
  const errors = lines.findLastIndex((line) => line.trim() === 'ERRORS')
  const mark = errors >= 0 ? errors + 1 : lines.findLastIndex((line) => failure.test(line))
  const excerpt =
    mark >= 0
      ? lines
          .slice(mark)
          .filter((line) => !line.includes('node_modules/'))
          .slice(0, 30)
      : lines.slice(-30)
  const titles = (summary.titles ?? []).slice(0, 10).map((title) => `failed: ${title}`)
  return [...titles, ...excerpt].map((line) => (line.length > 240 ? `${line.slice(0, 239)}…` : line)).join('\n')
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

await dropTestDatabases()

// Each failed step's reason again, just above the totals: a CI that keeps only the log's tail still shows it.
// About 120 lines in all: fewer per step when several failed (at least 8 each).
const failedSteps = results.filter((r) => r.failed > 0 && r.why)
if (failedSteps.length > 0) {
  const perStep = Math.max(8, Math.floor(120 / failedSteps.length))
  console.log('\n━━ failures ━━')
  for (const r of failedSteps) console.log(`── ${r.name} ──\n${r.why.split('\n').slice(0, perStep).join('\n')}`)
}

console.log('\n━━ summary ━━')
for (const r of results) {
  console.log(
    `${r.name.padEnd(20)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${(r.ms / 1000).toFixed(1)} s` +
      (r.cpu === undefined ? '' : `  cpu ${r.cpu.toFixed(0)} s`)
  )
}
const passed = results.reduce((n, r) => n + r.passed, 0)
const failed = results.reduce((n, r) => n + r.failed, 0)
const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0)
const cpu = results.reduce((n, r) => n + (r.cpu ?? 0), 0)
console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s, cpu ${cpu.toFixed(0)} s`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 || results.length === 0 ? 1 : 0)

/**
 * TRAMITA_RECORD_WEIGHTS=1: keeps each sharded suite file's measured seconds in
 * core/server/tests/shard_weights.json, which balances the shards of later runs (tests/helpers/shard.ts).
 */
function recordWeights() {
  const sharded = results.filter((r) => steps.find((s) => s.name === r.name)?.group)
  // Only a whole, green run of the sharded suites replaces the weights.
  if (fileFilter.length > 0 || sharded.length === 0 || sharded.some((r) => r.failed > 0)) return
  const weights = {}
  for (const r of sharded) {
    for (const [file, ms] of Object.entries(r.durations ?? {})) {
      weights[relative(SERVER, resolve(SERVER, file))] = Math.round(ms / 100) / 10
    }
  }
  const sorted = Object.fromEntries(Object.entries(weights).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(join(SERVER, 'tests', 'shard_weights.json'), JSON.stringify(sorted, null, 2) + '\n')
  console.log(`recorded the weights of ${Object.keys(sorted).length} sharded files`)
}

function freePort() {
  return new Promise((ok, ko) => {
    const server = createServer().on('error', ko)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => ok(port))
    })
  })
}

async function dropTestDatabases() {
  if (!results.some((r) => r.name.includes('mariadb'))) return
  try {
    const { default: mysql } = await import(join(ROOT, 'node_modules', 'mysql2', 'promise.js'))
    const conn = await mysql.createConnection({
      host: MYSQL.DB_HOST,
      port: Number(MYSQL.DB_PORT),
      user: MYSQL.DB_USER,
      password: MYSQL.DB_PASSWORD,
    })
    // The suites' databases and every one named after them (the CLI suite's template and children).
    const [rows] = await conn.query('SHOW DATABASES')
    const ours = rows
      .map((row) => Object.values(row)[0])
      .filter((name) => name === MYSQL.DB_DATABASE || name.startsWith(`${MYSQL.DB_DATABASE}_`))
    for (const name of ours) await conn.query(`DROP DATABASE IF EXISTS \`${name}\``)
    await conn.end()
  } catch (error) {
    console.warn(`could not drop the MariaDB test databases: ${error.message}`)
  }
}
