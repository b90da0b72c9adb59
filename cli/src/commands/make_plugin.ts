import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Command } from 'commander'
import { input } from '@inquirer/prompts'
import { CliError, isInteractive } from '../output.js'

const ID = /^[a-z][a-z0-9-]{1,39}$/

/** Every `*.tpl` file under dir, recursively. */
function templates(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return templates(path)
    return name.endsWith('.tpl') ? [path] : []
  })
}

export function registerMakePlugin(program: Command) {
  program
    .command('make:plugin')
    .argument('[name]', 'plugin id: lower-case letters, digits and dashes')
    .description('scaffold a plugin under plugins/ from templates/plugin and enable it')
    .action(async (name?: string) => {
      const { REPO_ROOT } = await import('@tramita/server/app/lib/paths.ts')
      const { PLUGINS_DIR, PLUGINS_FILE } = await import('@tramita/server/app/plugins/enabled.ts')
      if (!name) {
        if (!isInteractive()) throw new CliError('give the plugin a name: tramita make:plugin NAME')
        name = await input({
          message: 'Plugin id',
          validate: (v) => ID.test(v) || 'lower-case letters, digits, dashes',
        })
      }
      if (!ID.test(name))
        throw new CliError(`invalid plugin name "${name}": use 2-40 lower-case letters, digits or dashes`)
      const target = resolve(PLUGINS_DIR, name)
      if (existsSync(target)) throw new CliError(`plugins/${name} already exists`)

      const title = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase())
      cpSync(resolve(REPO_ROOT, 'templates', 'plugin'), target, { recursive: true })
      try {
        for (const file of templates(target)) {
          const text = readFileSync(file, 'utf8').replaceAll('__ID__', name).replaceAll('__TITLE__', title)
          writeFileSync(file, text)
          renameSync(file, file.slice(0, -'.tpl'.length))
        }
        const list = existsSync(PLUGINS_FILE) ? JSON.parse(readFileSync(PLUGINS_FILE, 'utf8')) : { enabled: [] }
        if (!list.enabled.includes(name)) list.enabled.push(name)
        writeFileSync(PLUGINS_FILE, JSON.stringify(list, null, 2) + '\n')
      } catch (error) {
        rmSync(target, { recursive: true, force: true })
        throw error
      }
      console.log(
        `Created plugins/${name} and enabled it in ${PLUGINS_FILE.startsWith(REPO_ROOT) ? relative(REPO_ROOT, PLUGINS_FILE) : PLUGINS_FILE}`
      )
      console.log(`Its test runs with the functional suite; try \`tramita ${name}:hello\`.`)
    })
}
