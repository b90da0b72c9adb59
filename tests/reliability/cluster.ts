/**
 * The reliability suite's cluster: real `tramita serve` and `tramita worker` processes (as an operator
 * starts them) on one MariaDB, one Redis and one S3-compatible store, all fresh for the run:
 * - MariaDB: a private mariadbd on a port of its own (restartable), or with `mariadb: 'shared'` a new
 *   database on the machine's server (TEST_DB_*), dropped at stop;
 * - Redis: a private redis-server on a port of its own, so a test may kill and restart it;
 * - S3: s3rver (an npm package) in this process, on a port of its own, with a new bucket and folder.
 * Every process gets its own data dir: nothing they share goes through the local disk.
 *
 * Runs on Node 24 as is (type stripping): erasable TypeScript only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import mysql from 'mysql2/promise'
import S3rver from 's3rver'
import { type StallingProxy, startStallingProxy } from '../../core/server/tests/helpers/stalling_proxy.ts'

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const TRAMITA_BIN = join(ROOT, 'cli', 'bin', 'tramita.js')
/** The demo accounts' password (`tramita seed --demo`). */
export const DEMO_PASSWORD = 'Tramita#2026'

export type Kind = 'app' | 'worker'

export interface Node {
  readonly name: string
  readonly kind: Kind
  /** The app node's port (the same after a restart); 0 for a worker. */
  readonly port: number
  readonly url: string
  child: ChildProcess
  /** Everything the process printed since its (last) start. */
  output(): string
}

export interface ClusterOptions {
  apps?: number
  workers?: number
  /** Extra environment for every process (limits a test wants small, say). */
  env?: Record<string, string>
  /** A MariaDB server of the cluster's own (default: restartable, apart from other suites) or the machine's. */
  mariadb?: 'private' | 'shared'
  log?: (line: string) => void
}

/** The machine's MariaDB (TEST_DB_*), used when a cluster is started with `mariadb: 'shared'`. */
const SHARED_MYSQL = {
  host: process.env.TEST_DB_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_DB_PORT ?? 3306),
  user: process.env.TEST_DB_USER ?? 'root',
  password: process.env.TEST_DB_PASSWORD ?? '',
}
type MysqlAddress = typeof SHARED_MYSQL

/**
 * How long a process may take to answer after its start: the first app node also migrates and seeds the
 * demo. The whole cluster is up in 6 s on an idle fast machine and 20 s beside four busy loops there; a
 * machine twice as slow in the middle of the CI takes several times that. A wait, not a limit on the
 * product: it ends as soon as the node answers.
 */
const READY_MS = 180_000

export function freePort(): Promise<number> {
  return new Promise((ok, ko) => {
    const server = createServer().on('error', ko)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => ok(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: () => string): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what()}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

/** A redis-server of our own: kill() and start() again on the same port (Redis restarted). */
class PrivateRedis {
  readonly port: number
  private child?: ChildProcess
  constructor(port: number) {
    this.port = port
  }
  get url() {
    return `redis://127.0.0.1:${this.port}`
  }
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    )
    this.child = child
    let out = ''
    await new Promise<void>((ready, fail) => {
      const onData = (chunk: Buffer) => {
        out += chunk
        if (out.includes('Ready to accept connections')) ready()
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', onData)
      child.once('exit', () => fail(new Error(`redis-server ended before it was ready:\n${out}`)))
    })
  }
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill(signal)
    await exited
  }
  killNow(): void {
    if (this.child?.exitCode === null) this.child.kill('SIGKILL')
  }
  /** SIGSTOP: the server keeps its connections and answers nothing (hung, or its network dropping packets). */
  freeze(): void {
    this.child?.kill('SIGSTOP')
  }
  thaw(): void {
    this.child?.kill('SIGCONT')
  }
}

/**
 * A mariadbd of our own (a data dir made by mariadb-install-db in about a second, a port of its own):
 * kill() and start() again on the same files is MariaDB restarted, or crashed, without touching the
 * server the other suites share (nor its server-wide migration lock).
 */
class PrivateMariaDB {
  readonly port: number
  readonly dir: string
  private child?: ChildProcess
  constructor(port: number, dir: string) {
    this.port = port
    this.dir = dir
  }
  get address(): MysqlAddress {
    return { host: '127.0.0.1', port: this.port, user: 'root', password: '' }
  }
  async start(): Promise<void> {
    const data = join(this.dir, 'data')
    if (!existsSync(data)) {
      const install = spawn(
        'mariadb-install-db',
        [
          '--no-defaults',
          `--datadir=${data}`,
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
          '--user=root',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] }
      )
      let out = ''
      install.stdout!.on('data', (d) => (out += d))
      install.stderr!.on('data', (d) => (out += d))
      const [code] = (await once(install, 'exit')) as [number | null]
      if (code !== 0) throw new Error(`mariadb-install-db failed:\n${out}`)
    }
    const child = spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(this.dir, 'mariadb.sock')}`,
        `--pid-file=${join(this.dir, 'mariadb.pid')}`,
        '--user=root',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=64M',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_unicode_ci',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    )
    this.child = child
    let out = ''
    child.stdout!.on('data', (d) => (out += d))
    child.stderr!.on('data', (d) => (out += d))
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`mariadbd ended:\n${out}`)
        const conn = await mysql.createConnection(this.address).catch(() => null)
        if (!conn) return undefined
        await conn.end()
        return true
      },
      30_000,
      () => `mariadbd on port ${this.port}:\n${out}`
    )
  }
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill(signal)
    await exited
  }
  killNow(): void {
    if (this.child?.exitCode === null) this.child.kill('SIGKILL')
  }
  /** SIGSTOP: the server keeps its connections and answers nothing (hung, or its network dropping packets). */
  freeze(): void {
    this.child?.kill('SIGSTOP')
  }
  thaw(): void {
    this.child?.kill('SIGCONT')
  }
}

export class Cluster {
  readonly apps: Node[] = []
  readonly workers: Node[] = []
  /** What every process was given (and the CLI commands a test runs against the cluster). */
  readonly env: Record<string, string>
  readonly redis: PrivateRedis
  /** The private MariaDB server, unless the cluster runs on the machine's (`mariadb: 'shared'`). */
  readonly mariadb?: PrivateMariaDB
  readonly mysql: MysqlAddress
  readonly database: string
  readonly bucket: string
  /** s3rver's folder: the objects the nodes stored (a test may look there). */
  readonly s3Dir: string
  readonly prefix: string
  private readonly s3: S3rver
  /** Between the nodes and s3rver: freezeS3() stops it passing bytes. */
  private readonly s3Proxy: StallingProxy
  private readonly dirs: string[] = []
  private readonly log: (line: string) => void

  private constructor(init: {
    env: Record<string, string>
    redis: PrivateRedis
    mariadb?: PrivateMariaDB
    mysql: MysqlAddress
    database: string
    bucket: string
    s3: S3rver
    s3Proxy: StallingProxy
    s3Dir: string
    prefix: string
    log: (line: string) => void
  }) {
    this.env = init.env
    this.redis = init.redis
    this.mariadb = init.mariadb
    this.mysql = init.mysql
    this.database = init.database
    this.bucket = init.bucket
    this.s3 = init.s3
    this.s3Proxy = init.s3Proxy
    this.s3Dir = init.s3Dir
    this.prefix = init.prefix
    this.log = init.log
    this.dirs.push(init.s3Dir)
  }

  /**
   * Starts the services and every process; the first app node prepares the database (migrations,
   * demo data) with `serve --migrate --seed-demo`. Resolves once all answer.
   */
  static async start(options: ClusterOptions = {}): Promise<Cluster> {
    const log = options.log ?? (() => {})
    const run = `${process.pid}_${randomBytes(3).toString('hex')}`
    const redis = new PrivateRedis(await freePort())
    await redis.start()
    let mariadb: PrivateMariaDB | undefined
    if (options.mariadb !== 'shared') {
      mariadb = new PrivateMariaDB(await freePort(), mkdtempSync(join(tmpdir(), 'tramita-mariadb-')))
      await mariadb.start().catch(async (error) => {
        await redis.kill()
        throw error
      })
    }
    const address = mariadb?.address ?? SHARED_MYSQL
    const s3Dir = mkdtempSync(join(tmpdir(), 'tramita-s3-'))
    const bucket = `tramita-${run.replace(/_/g, '-')}`
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: s3Dir,
      silent: true,
      configureBuckets: [{ name: bucket }],
    })
    const { port: s3Port } = await s3.run()
    const s3Proxy = await startStallingProxy({ host: '127.0.0.1', port: s3Port })
    const database = `tramita_rel_${run}`
    const prefix = `rel${run}`
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      APP_KEY: randomBytes(32).toString('base64url'),
      DB_CONNECTION: 'mysql',
      DB_HOST: address.host,
      DB_PORT: String(address.port),
      DB_USER: address.user,
      DB_PASSWORD: address.password,
      DB_DATABASE: database,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      DRIVE_DISK: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${s3Proxy.port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      // s3rver does not read the AWS SDK's streamed (aws-chunked) uploads with checksum trailers, the
      // SDK's default since 2025; MinIO and AWS read both. Checksums only where an operation needs them.
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      ...options.env,
    }
    const cluster = new Cluster({
      env,
      redis,
      mariadb,
      mysql: address,
      database,
      bucket,
      s3,
      s3Proxy,
      s3Dir,
      prefix,
      log,
    })
    if (mariadb) cluster.dirs.push(mariadb.dir)
    // A runner that ends without stop() (a crash, an uncaught error) leaves no server behind.
    process.once('exit', cluster.killNow)
    try {
      // The first app node prepares the database before it listens, while the workers start; the
      // other app nodes once it is ready (each enqueues the hourly jobs as it starts, which would
      // fail on missing tables and be retried).
      const first = await cluster.add('app', ['--migrate', '--seed-demo'])
      const nodes = [first]
      for (let i = 0; i < (options.workers ?? 2); i++) nodes.push(await cluster.add('worker'))
      await cluster.waitReady(first)
      for (let i = 1; i < (options.apps ?? 2); i++) nodes.push(await cluster.add('app'))
      await Promise.all(nodes.map((node) => cluster.waitReady(node)))
      log(`${cluster.apps.length} app nodes, ${cluster.workers.length} workers up (database ${database})`)
      return cluster
    } catch (error) {
      await cluster.stop()
      throw error
    }
  }

  /** Starts one more process of a kind (not waited for: waitReady). */
  async add(kind: Kind, extra: string[] = []): Promise<Node> {
    const list = kind === 'app' ? this.apps : this.workers
    const name = `${kind}-${String.fromCharCode(97 + list.length)}`
    const port = kind === 'app' ? await freePort() : 0
    const dataDir = mkdtempSync(join(tmpdir(), `tramita-${name}-`))
    this.dirs.push(dataDir)
    // Its temporary files too (OS TMPDIR): what a killed process leaves there (an OCR run's pages) goes at stop.
    const tempDir = join(dataDir, 'tmpdir')
    mkdirSync(tempDir)
    // One HTTP process per app node (production with Redis would run one per core): a node killed is one process.
    const base = kind === 'app' ? ['serve', '--port', String(port), '--workers', '1'] : ['worker']
    let args = [...base, ...extra]
    let out = ''
    const node: Node = {
      name,
      kind,
      port,
      url: `http://127.0.0.1:${port}`,
      child: undefined as unknown as ChildProcess,
      output: () => out,
    }
    const spawnIt = () => {
      out = ''
      const child = spawn(process.execPath, [TRAMITA_BIN, ...args], {
        cwd: ROOT,
        env: { ...process.env, ...this.env, TRAMITA_DATA_DIR: dataDir, TMPDIR: tempDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout!.on('data', (d) => (out += d))
      child.stderr!.on('data', (d) => (out += d))
      node.child = child
    }
    spawnIt()
    // A restart starts the same command again, but for preparing the database (done by then).
    restarts.set(node, () => {
      args = args.filter((a) => a !== '--migrate' && a !== '--seed-demo')
      spawnIt()
    })
    list.push(node)
    return node
  }

  /** Resolves once the node serves (app: /health answers) or takes jobs (worker: says it started). */
  async waitReady(node: Node): Promise<void> {
    const gone = () => node.child.exitCode !== null || node.child.signalCode !== null
    await until(
      async () => {
        if (gone()) throw new Error(`${node.name} ended before it was ready:\n${node.output()}`)
        if (node.kind === 'worker') return node.output().includes('Worker started') ? true : undefined
        try {
          return (await fetch(`${node.url}/health`)).status ? true : undefined
        } catch {
          return undefined
        }
      },
      READY_MS,
      () => `${node.name} to be ready:\n${node.output()}`
    )
  }

  /** Sends `signal` (SIGKILL by default: a crash) and resolves once the process has ended. */
  async kill(node: Node, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = node.child
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill(signal)
    await exited
  }

  /** Stops (SIGTERM, drained) if running, starts the same process again, and waits until it is ready. */
  async restart(node: Node): Promise<void> {
    await this.kill(node, 'SIGTERM')
    restarts.get(node)!()
    await this.waitReady(node)
  }

  /** Redis restarted (its data is gone, as with the machine's Redis, which keeps nothing). */
  async restartRedis(): Promise<void> {
    await this.redis.kill()
    await this.redis.start()
  }

  /**
   * MariaDB restarted (SIGTERM: a clean stop; SIGKILL: a crash, InnoDB recovers on start), on the same
   * files and port. Only the cluster's private server: the machine's serves the other suites.
   */
  async restartMariaDB(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.mariadb) throw new Error("restartMariaDB needs the cluster's private MariaDB (mariadb: 'private')")
    await this.mariadb.kill(signal)
    await this.mariadb.start()
  }

  /** MariaDB frozen (SIGSTOP) until thawMariaDB(); the cluster's private server only. */
  freezeMariaDB(): void {
    if (!this.mariadb) throw new Error("freezeMariaDB needs the cluster's private MariaDB (mariadb: 'private')")
    this.mariadb.freeze()
  }
  thawMariaDB(): void {
    this.mariadb?.thaw()
  }

  /** The object store silent (its connections held open, nothing passing) until thawS3(). */
  freezeS3(): void {
    this.s3Proxy.stall()
  }
  thawS3(): void {
    this.s3Proxy.resume()
  }

  /** A query on the cluster's database (a fresh connection each time: it may follow a restart). */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const conn = await mysql.createConnection({ ...this.mysql, database: this.database })
    try {
      const [rows] = await conn.query(sql, params)
      return rows as T[]
    } finally {
      await conn.end()
    }
  }

  /** Runs a `tramita` command against the cluster's services; resolves with its exit code and output. */
  async cli(args: string[]): Promise<{ code: number | null; output: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'tramita-cli-'))
    this.dirs.push(dataDir)
    const child = spawn(process.execPath, [TRAMITA_BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, TRAMITA_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    const [code] = (await once(child, 'exit')) as [number | null]
    return { code, output }
  }

  /** A file in a temporary folder the cluster removes at stop. */
  tempFile(name: string, content: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'tramita-rel-'))
    this.dirs.push(dir)
    const path = join(dir, name)
    writeFileSync(path, content)
    return path
  }

  /** SIGKILLs whatever still runs, at once (the exit hook: no waiting there). */
  private readonly killNow = (): void => {
    for (const node of [...this.apps, ...this.workers]) if (node.child.exitCode === null) node.child.kill('SIGKILL')
    this.redis.killNow()
    this.mariadb?.killNow()
  }

  /** Stops every process (SIGTERM, then SIGKILL after 20 s), the services, and removes the database and folders. */
  async stop(): Promise<void> {
    process.off('exit', this.killNow)
    const nodes = [...this.apps, ...this.workers]
    await Promise.all(
      nodes.map(async (node) => {
        const at = Date.now()
        const killer = setTimeout(() => node.child.kill('SIGKILL'), 20_000)
        await this.kill(node, 'SIGTERM')
        clearTimeout(killer)
        this.log(`${node.name} stopped in ${Date.now() - at} ms`)
      })
    )
    await this.redis.kill()
    await this.s3Proxy.close()
    await this.s3.close().catch(() => undefined)
    if (this.mariadb) {
      await this.mariadb.kill('SIGTERM')
    } else {
      const conn = await mysql.createConnection(this.mysql).catch(() => null)
      if (conn) {
        await conn.query(`DROP DATABASE IF EXISTS \`${this.database}\``).catch(() => undefined)
        await conn.end()
      }
    }
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true })
    this.log('cluster stopped')
  }
}

/** How each node starts again (kept beside the node, not on it: a Node is what tests see). */
const restarts = new WeakMap<Node, () => void>()
