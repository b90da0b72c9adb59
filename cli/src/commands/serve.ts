import type { Command } from 'commander'
import { runState } from '../output.js'

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
    .action(async (opts: { port?: string; host?: string; migrate?: boolean; seedDemo?: boolean; dev?: boolean }) => {
      if (opts.port) process.env.PORT = opts.port
      if (opts.host) process.env.HOST = opts.host
      process.env.NODE_ENV ??= opts.dev ? 'development' : 'production'
      if (opts.migrate) process.env.TRAMITA_AUTO_MIGRATE = opts.seedDemo ? 'demo' : 'schema'
      runState.keepAlive = true
      const { startHttpServer } = await import('@tramita/server/bin/server.ts')
      await startHttpServer()
    })
}
