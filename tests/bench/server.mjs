/**
 * `tramita serve` for a benchmark: startTramita on a fresh SQLite data dir, startMariadbTramita on a fresh
 * MariaDB database. startTramita: a fresh SQLite data dir with the demo data (password
 * Tramita#2026 unless TRAMITA_DEMO_PASSWORD says otherwise), on a free port, answering /health.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const NODE = join(ROOT, 'node_modules', '.bin', 'node')

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
    server.on('error', reject)
  })
}

/** Waits until something answers /health on the port (any status). */
export async function ready(port, child) {
  for (let i = 0; i < 300; i++) {
    if (child && child.exitCode !== null) throw new Error(`the server exited at start (code ${child.exitCode})`)
    try {
      await fetch(`http://127.0.0.1:${port}/health`)
      return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`nothing answers on port ${port}`)
}

export async function startTramita(extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tramita-bench-'))
  const port = await freePort()
  const child = spawn(
    NODE,
    ['cli/bin/tramita.js', 'serve', '--migrate', '--seed-demo', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        TRAMITA_DATA_DIR: dataDir,
        REDIS_URL: '',
        DB_CONNECTION: 'sqlite',
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }
  )
  await ready(port, child)
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    pid: child.pid,
    url: `${origin}/data/config/infocompany`,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The MariaDB a benchmark creates its database on (DB_* as the tests read them). */
export const MARIADB = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USER ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
}

/**
 * `tramita serve` on a fresh MariaDB database `database` (migrated and demo-seeded by the commands first:
 * `serve --migrate` on MariaDB sometimes failed with "unable to release database lock", Lucid's advisory
 * lock released from another pooled connection). `stop()` ends the server and drops the database and
 * data dir. BENCH_SERVER_ARGS: Node options for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
export async function startMariadbTramita({ database, password, appKey = randomBytes(32).toString('base64url') }) {
  const { default: mysql } = await import('mysql2/promise')
  const admin = await mysql.createConnection(MARIADB)
  await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  await admin.end()
  const dataDir = mkdtempSync(join(tmpdir(), 'tramita-bench-'))
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    APP_KEY: appKey,
    TRAMITA_DATA_DIR: dataDir,
    TRAMITA_DEMO_PASSWORD: password,
    REDIS_URL: '',
    DB_CONNECTION: 'mysql',
    DB_HOST: MARIADB.host,
    DB_PORT: String(MARIADB.port),
    DB_USER: MARIADB.user,
    DB_PASSWORD: MARIADB.password,
    DB_DATABASE: database,
  }
  const dropAll = async () => {
    rmSync(dataDir, { recursive: true, force: true })
    const drop = await mysql.createConnection(MARIADB)
    await drop.query(`DROP DATABASE IF EXISTS \`${database}\``)
    await drop.end()
  }
  for (const args of [['migrate'], ['seed', '--demo']]) {
    const run = spawnSync(NODE, ['cli/bin/tramita.js', ...args], { cwd: ROOT, env, encoding: 'utf8' })
    if (run.status !== 0) {
      await dropAll()
      throw new Error(`tramita ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`)
    }
  }
  const port = await freePort()
  const nodeArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(
    NODE,
    [...nodeArgs, 'cli/bin/tramita.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    }
  )
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
    await dropAll()
  }
  try {
    await ready(port, child)
  } catch (error) {
    await stop()
    throw error
  }
  // Why a request failed, when the server itself stopped.
  const exit = () =>
    (child.exitCode ?? child.signalCode) !== null && `code ${child.exitCode}, signal ${child.signalCode}`
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid, dataDir, env, stop, exit }
}

/** The demo admin's session token through the spec's sign-in (the SHA-256 prehash of the password). */
export async function signInAdmin(origin, password) {
  const answer = await fetch(`${origin}/data/login`, {
    method: 'PUT',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      case: 'PUT',
      user: 'admin',
      password: createHash('sha256').update(password).digest('hex'),
      side_login: 'admin',
      type_login: 'normal',
    }),
  }).then((r) => r.json())
  if (answer.status !== 'done' || !answer.data?.token_new) throw new Error(`sign-in failed: ${JSON.stringify(answer)}`)
  return answer.data.token_new
}
