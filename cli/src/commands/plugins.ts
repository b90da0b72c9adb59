import type { Command } from 'commander'
import { withApp } from '../app.js'

export function registerPlugins(program: Command) {
  program
    .command('plugins')
    .description('list the enabled plugins and whether each one booted')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { platform } = await import('@tramita/server/app/services/platform.ts')
      await withApp(async () => {
        const status = platform().plugins.status()
        if (opts.json) return console.log(JSON.stringify(status, null, 2))
        for (const p of status) {
          console.log(
            `${p.id.padEnd(16)} ${String(p.version ?? '-').padEnd(10)} ${p.state}${p.error ? `  ${p.error}` : ''}`
          )
        }
      })
    })
}
