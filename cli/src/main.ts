import { readFileSync } from 'node:fs'
import { Command } from 'commander'
import { registerServe } from './commands/serve.js'
import { registerWorker } from './commands/worker.js'
import { registerMigrate } from './commands/migrate.js'
import { registerSeed } from './commands/seed.js'
import { registerPlugins } from './commands/plugins.js'
import { registerMakePlugin } from './commands/make_plugin.js'
import { registerForms } from './commands/forms.js'
import { registerMakeForm } from './commands/make_form.js'
import { runPluginCommand } from './commands/plugin_commands.js'
import { runProgram } from './commands/programs.js'
import { reportAndExit, runState } from './output.js'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

const program = new Command()
  .name('tramita')
  .description('Tramita: documents, business processes and the forms that drive them')
  .version(pkg.version, '-v, --version')
  .showHelpAfterError()
  // Options after a command are that command's (forms:export --version N is not the CLI's --version).
  .enablePositionalOptions()

registerServe(program)
registerWorker(program)
registerMigrate(program)
registerSeed(program)
registerPlugins(program)
registerMakePlugin(program)
registerForms(program)
registerMakeForm(program)

const [first, ...rest] = process.argv.slice(2)
const builtIn = program.commands.some((c) => c.name() === first)
// A plugin's own program (`tramita agent`), when no built-in command has the name.
const ran =
  !builtIn && first && /^[a-z][a-z0-9-]*$/.test(first) ? await runProgram(first, rest).catch(reportAndExit) : null
if (typeof ran === 'number') {
  process.exit(ran)
} else if (first?.includes(':') && !builtIn) {
  await runPluginCommand(first, rest).catch(reportAndExit)
} else {
  await program.parseAsync(process.argv).catch(reportAndExit)
}
// Commands other than `serve` are done here; exit even if a log transport or pool still holds the loop.
if (!runState.keepAlive) process.exit(process.exitCode ?? 0)
