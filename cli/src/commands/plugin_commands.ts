import { Command } from 'commander'
import { withApp } from '../app.js'
import { CliError } from '../output.js'

/**
 * `tramita <plugin>:<command> ...`: commands that plugins declare. Their list is known only once the
 * app has loaded the enabled plugins, so they are looked up after boot instead of registered up front.
 */
export async function runPluginCommand(name: string, argv: string[]): Promise<void> {
  const { platform } = await import('@tramita/server/app/services/platform.ts')
  await withApp(async () => {
    const commands = platform().plugins.commands()
    const found = commands.find((c) => c.name === name)
    if (!found) {
      const known = commands.map((c) => c.name).join(', ') || 'none'
      throw new CliError(`unknown command "${name}"; plugin commands: ${known}`)
    }
    const command = new Command(name).description(found.command.description).exitOverride()
    for (const option of found.command.options ?? []) {
      command.option(option.flags, option.description, option.defaultValue as string | boolean | undefined)
    }
    command.argument('[args...]')
    command.action(async (args: string[], options: Record<string, unknown>) => {
      await found.command.run(args, options, found.ctx)
    })
    await command.parseAsync(argv, { from: 'user' })
  })
}
