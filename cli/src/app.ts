import type { ApplicationService } from '@adonisjs/core/types'
import { createIgnitor } from '@tramita/server/bin/ignite.ts'
import { CliError } from './output.js'

/**
 * Boots the server application in console mode (config, database, plugins; no HTTP listener), runs
 * `fn`, then terminates it so connections close and the process can exit.
 */
export async function withApp<T>(fn: (app: ApplicationService) => Promise<T>): Promise<T> {
  const app = createIgnitor().createApp('console')
  await app.init()
  await app.boot()
  await app.start(async () => {})
  try {
    return await fn(app)
  } finally {
    await app.terminate()
  }
}

/**
 * `withApp` for commands that read or write data: a database that was never migrated, or has pending
 * migrations, is a one-line failure saying what to run (not an SQL error about a missing table).
 */
export function withMigratedApp<T>(fn: (app: ApplicationService) => Promise<T>): Promise<T> {
  return withApp(async (app) => {
    const { databaseIsNew, pendingMigrations } = await import('@tramita/server/app/services/migrations.ts')
    const { ensureDatabase } = await import('@tramita/server/app/lib/ensure_database.ts')
    // MySQL: the database itself may not exist yet (SQLite's file is made on connection).
    await ensureDatabase()
    if (await databaseIsNew()) throw new CliError('the database has no tables yet: run `tramita migrate` first')
    const pending = await pendingMigrations(app)
    if (pending.length > 0) {
      throw new CliError(`the database has ${pending.length} pending migration(s): run \`tramita migrate\` first`)
    }
    return fn(app)
  })
}
