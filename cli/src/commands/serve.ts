import type { Command } from 'commander'
import { CliError, runState } from '../output.js'
import { defaultHttpProcesses, inHttpProcess, runPrimary } from '../cluster.js'

export function registerServe(program: Command) {
  program
    .command('serve')
    .description('start the HTTP server (and the in-process worker when REDIS_URL is not set)')
    .option('-p, --port <port>', 'port to listen on (PORT, default 3333)')
    .option(
      '--host <host>',
      'interface to bind (HOST, default 127.0.0.1; another address is refused while a demo account has the README password)'
    )
    .option('--migrate', 'run migrations first when the database is new')
    .option('--seed-demo', 'with --migrate: load demo data into a new database')
    .option('--dev', 'development mode (pretty logs, stack traces in error pages)')
    .option(
      '-w, --workers <n>',
      'HTTP processes on this port (node:cluster; default one per core in production with REDIS_URL, else 1)'
    )
    .action(async (opts: ServeOptions) => {
      if (opts.port) process.env.PORT = opts.port
      if (opts.host) process.env.HOST = opts.host
      process.env.NODE_ENV ??= opts.dev ? 'development' : 'production'
      runState.keepAlive = true
      // A process of a primary's cluster: the primary decided who migrates (through the environment).
      if (!inHttpProcess()) {
        const migrate = opts.migrate ? (opts.seedDemo ? 'demo' : 'schema') : undefined
        const count = httpProcesses(opts.workers)
        if (count > 1) return runPrimary(count, migrate)
        if (migrate) process.env.TRAMITA_AUTO_MIGRATE = migrate
      }
      const { startHttpServer } = await import('@tramita/server/bin/server.ts')
      await startHttpServer()
    })
}

interface ServeOptions {
  port?: string
  host?: string
  migrate?: boolean
  seedDemo?: boolean
  dev?: boolean
  workers?: string
}

/** --workers, or the default; more than one needs Redis, where the nodes share jobs, sockets and limits. */
function httpProcesses(option: string | undefined): number {
  if (option === undefined) return defaultHttpProcesses()
  const count = Number(option)
  if (!Number.isInteger(count) || count < 1 || count > 256)
    throw new CliError('--workers must be an integer from 1 to 256')
  if (count > 1 && !process.env.REDIS_URL) {
    throw new CliError(
      '--workers above 1 needs REDIS_URL (jobs, socket fan-out and rate limits shared by the processes)'
    )
  }
  if (count > 1 && process.env.DB_CONNECTION !== 'mysql') {
    console.warn(
      'tramita: SQLite takes one writer at a time: the processes will wait on each other (use MySQL/MariaDB)'
    )
  }
  return count
}
