import type { ApplicationService } from '@adonisjs/core/types'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import { ensureDatabase } from '#lib/ensure_database'

export interface MigrationResult {
  ran: string[]
  pending: number
}

/** True when the database has never been migrated (no Lucid bookkeeping table). */
export async function databaseIsNew(): Promise<boolean> {
  return !(await db.connection().schema.hasTable('adonis_schema'))
}

/** Runs (or rolls back one batch of) the core's and enabled plugins' migrations. */
export async function runMigrations(
  app: ApplicationService,
  direction: 'up' | 'down' = 'up'
): Promise<MigrationResult> {
  await ensureDatabase()
  const runner = new MigrationRunner(db, app, { direction, dryRun: false })
  await runner.run()
  if (runner.error) throw runner.error
  const ran = Object.values(runner.migratedFiles)
    .filter((f) => f.status === 'completed')
    .map((f) => f.file.name)
  return { ran, pending: 0 }
}

/** Names of migrations not yet run. */
export async function pendingMigrations(app: ApplicationService): Promise<string[]> {
  const runner = new MigrationRunner(db, app, { direction: 'up', dryRun: true })
  await runner.run()
  if (runner.error) throw runner.error
  return Object.values(runner.migratedFiles).map((f) => f.file.name)
}
