/**
 * A real Tramita server process for a reliability part: `tramita serve --migrate --seed-demo` on its own
 * data folder and port, on SQLite or on a MariaDB database of its own (dropped by stop()).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)))
const NODE = join(ROOT, 'node_modules', '.bin', 'node')
const TRAMITA = join(ROOT, 'cli', 'bin', 'tramita.js')

export const MYSQL = {
  host: process.env.TEST_DB_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_DB_PORT ?? 3306),
  user: process.env.TEST_DB_USER ?? 'root',
  password: process.env.TEST_DB_PASSWORD ?? '',
}

export function freePort() {
  return new Promise((ok, ko) => {
    const server = createServer().on('error', ko)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => ok(port))
    })
  })
}

async function mysqlConnection() {
  const { default: mysql } = await import(join(ROOT, 'node_modules', 'mysql2', 'promise.js'))
  return mysql.createConnection(MYSQL)
}

/**
 * Starts the server; resolves once it answers. `database`: 'sqlite' or 'mysql'. `env` is added to the
 * process's environment (TRUSTED_PROXIES, limits).
 */
export async function startServer(options) {
  // Lucid's migration lock is server-wide on MariaDB: another suite migrating at the same moment makes
  // a start fail on the lock; it is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options)
    } catch (error) {
      if (attempt >= 3 || !/database lock/.test(String(error?.message))) throw error
      await new Promise((r) => setTimeout(r, 3000 * attempt))
    }
  }
}

async function startOnce({ label, database, env = {} }) {
  const dataDir = mkdtempSync(join(tmpdir(), `tramita-${label}-`))
  const port = await freePort()
  const dbName = `tramita_${label.replace(/\W/g, '_')}_${process.pid}`
  const dbEnv =
    database === 'mysql'
      ? {
          DB_CONNECTION: 'mysql',
          DB_HOST: MYSQL.host,
          DB_PORT: String(MYSQL.port),
          DB_USER: MYSQL.user,
          DB_PASSWORD: MYSQL.password,
          DB_DATABASE: dbName,
        }
      : { DB_CONNECTION: 'sqlite' }
  if (database === 'mysql') {
    const conn = await mysqlConnection()
    await conn.query(`DROP DATABASE IF EXISTS \`${dbName}\``)
    await conn.query(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
    await conn.end()
  }
  const output = []
  const child = spawn(NODE, [TRAMITA, 'serve', '--migrate', '--seed-demo', '--port', String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      TRAMITA_DATA_DIR: dataDir,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...dbEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk) => {
    output.push(chunk.toString())
    if (output.length > 2000) output.splice(0, 1000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let exited = null
  child.on('exit', (code, signal) => (exited = { code, signal }))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (exited) throw new Error(`the server exited (${JSON.stringify(exited)}):\n${output.join('').slice(-4000)}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not answer within 120 s:\n${output.join('').slice(-4000)}`)
    }
    try {
      const response = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(2000) })
      if (response.ok) break
    } catch {}
    await new Promise((r) => setTimeout(r, 300))
  }
  return {
    baseUrl,
    dataDir,
    database,
    dbName,
    sqliteFile: join(dataDir, 'tramita.sqlite3'),
    mysqlConnection: async () => {
      const conn = await mysqlConnection()
      await conn.query(`USE \`${dbName}\``)
      return conn
    },
    output: () => output.join(''),
    alive: () => exited === null,
    async stop() {
      if (exited === null) {
        child.kill('SIGTERM')
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 10_000))])
        if (exited === null) child.kill('SIGKILL')
      }
      if (database === 'mysql') {
        const conn = await mysqlConnection()
        await conn.query(`DROP DATABASE IF EXISTS \`${dbName}\``)
        await conn.end()
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
