import type { ApplicationService } from '@adonisjs/core/types'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import { ensureDatabase } from '#lib/ensure_database'
import { withoutStatementLimit } from '#lib/db_timeouts'

export interface MigrationResult {
  ran: string[]
  pending: number
}

/** True when the database has never been migrated (no Lucid bookkeeping table). */
export async function databaseIsNew(): Promise<boolean> {
  return !(await db.connection().schema.hasTable('adonis_schema'))
}

/** How long a migration waits for another process migrating the same database. */
const LOCK_WAIT_S = 60

/**
 * Runs `work` holding this database's migration lock. Lucid's own lock is one advisory lock for the
 * whole MariaDB server, taken without waiting: two databases on one server could not migrate at the
 * same time, and a second node started beside the first failed instead of waiting. This one is named
 * after the database and waits LOCK_WAIT_S. It is held by a connection of its own (a transaction that
 * runs nothing else), since MariaDB ties the lock to the session that took it. SQLite has one writer.
 */
async function withMigrationLock<T>(work: () => Promise<T>): Promise<T> {
  const connection = db.connection()
  if (connection.dialect.name !== 'mysql') return work()
  const holder = await db.transaction()
  try {
    const [[{ name }]] = (await holder.rawQuery('SELECT DATABASE() AS name')) as [[{ name: string }]]
    const key = `tramita_migrations:${name}`.slice(0, 64)
    const [[{ got }]] = (await holder.rawQuery('SELECT GET_LOCK(?, ?) AS got', [key, LOCK_WAIT_S])) as [
      [{ got: number }],
    ]
    if (got !== 1) throw new Error(`another process has been migrating database "${name}" for over ${LOCK_WAIT_S} s`)
    try {
      return await work()
    } finally {
      await holder.rawQuery('SELECT RELEASE_LOCK(?)', [key])
    }
  } finally {
    await holder.rollback()
  }
}

/** Runs the migrations: up, or down by one batch (`all`: every batch, back to an empty database). */
export async function runMigrations(
  app: ApplicationService,
  direction: 'up' | 'down' = 'up',
  all = false
): Promise<MigrationResult> {
  await ensureDatabase()
  const runner = new MigrationRunner(db, app, {
    direction,
    dryRun: false,
    disableLocks: true,
    ...(direction === 'down' && all ? { batch: 0 } : {}),
  })
  // No statement limit: an ALTER of a big table may take minutes (lib/db_timeouts.ts).
  await withoutStatementLimit(() => withMigrationLock(() => runner.run()))
  if (runner.error) throw runner.error
  const ran = Object.values(runner.migratedFiles)
    .filter((f) => f.status === 'completed')
    .map((f) => f.file.name)
  return { ran, pending: 0 }
}

/** Names of migrations not yet run. */
export async function pendingMigrations(app: ApplicationService): Promise<string[]> {
  const runner = new MigrationRunner(db, app, { direction: 'up', dryRun: true, disableLocks: true })
  await runner.run()
  if (runner.error) throw runner.error
  return Object.values(runner.migratedFiles).map((f) => f.file.name)
}
