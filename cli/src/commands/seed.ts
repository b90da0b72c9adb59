import type { Command } from 'commander'
import { withMigratedApp } from '../app.js'
import { step } from '../output.js'

export function registerSeed(program: Command) {
  program
    .command('seed')
    .description('load base data (roles, institution); --demo adds demo users, areas and an institution')
    .option('--demo', 'also create the demo institution and users (admin, supervisor, teacher, student)')
    .action(async (opts: { demo?: boolean }) => {
      await withMigratedApp(async () => {
        const seeds = await import('@tramita/server/app/services/seed_service.ts')
        if (!opts.demo) {
          await step('Seeding base data', () => seeds.seedBase())
          return
        }
        const result = await step('Seeding demo data', () => seeds.seedDemo())
        if (!result.created) console.log(`Demo data skipped: ${result.reason}`)
        else {
          console.log(
            `Demo users: ${result.users.join(', ')} (password from TRAMITA_DEMO_PASSWORD or the README's default)`
          )
          for (const key of result.forms) {
            console.log(`Demo process: /forms/new?data=${key}`)
            console.log(`Public consultation of its cases: /consult?data=${key}`)
          }
        }
      })
    })
}
