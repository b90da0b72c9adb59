import type { Command } from 'commander'
import { confirm } from '@inquirer/prompts'
import { withApp } from '../app.js'
import { CliError, isInteractive, step } from '../output.js'

export function registerMigrate(program: Command) {
  program
    .command('migrate')
    .description("run the core's and enabled plugins' database migrations")
    .option('--rollback', 'roll back the last batch instead')
    .option('--status', 'list pending migrations and exit')
    .option('-f, --force', 'do not ask before rolling back')
    .action(async (opts: { rollback?: boolean; status?: boolean; force?: boolean }) => {
      await withApp(async (app) => {
        // Server modules that use framework services are imported once the app has booted.
        const { runMigrations, pendingMigrations } = await import('@tramita/server/app/services/migrations.ts')
        if (opts.status) {
          const pending = await pendingMigrations(app)
          console.log(pending.length ? pending.map((p) => `pending  ${p}`).join('\n') : 'Nothing to migrate')
          return
        }
        if (opts.rollback) {
          if (!opts.force) {
            if (!isInteractive()) throw new CliError('rolling back drops data: pass --force to confirm')
            if (!(await confirm({ message: 'Roll back the last batch of migrations?', default: false }))) return
          }
          const result = await step('Rolling back', () => runMigrations(app, 'down'))
          console.log(result.ran.length ? result.ran.map((f) => `reverted ${f}`).join('\n') : 'Nothing to roll back')
          return
        }
        const result = await step('Migrating', () => runMigrations(app, 'up'))
        console.log(result.ran.length ? result.ran.map((f) => `migrated ${f}`).join('\n') : 'Already up to date')
      })
    })
}
