import { existsSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { CliError } from '../output.js'

const NAME = /^[a-z0-9][a-z0-9_-]{0,59}$/

/**
 * make:form NAME [--template T]: writes NAME.json, a form file (the format forms:export writes and
 * forms:import reads) from a template in templates/forms, or an empty one-page form.
 */
export function registerMakeForm(program: Command) {
  program
    .command('make:form')
    .argument('<name>', 'file name: lower-case letters, digits, dashes and underscores')
    .option('-t, --template <template>', 'a template of templates/forms (see --list)')
    .option('--dir <dir>', 'where to write the file', '.')
    .option('--title <title>', 'the form name shown to people (default: the template name or NAME)')
    .description('scaffold a form file from a template, to edit and then forms:import')
    .action(async (name: string, opts: { template?: string; dir: string; title?: string }) => {
      const { FORM_TEMPLATES, templateConfig } = await import('@tramita/server/app/services/process/form_templates.ts')
      const { emptyFormConfig, recordOnlyProcess } = await import('@tramita/contract')
      if (!NAME.test(name)) {
        throw new CliError(`invalid form file name "${name}": use lower-case letters, digits, dashes, underscores`)
      }
      const template = opts.template ? FORM_TEMPLATES.find((t) => t.id === opts.template) : undefined
      if (opts.template && !template) {
        throw new CliError(`unknown template "${opts.template}": ${FORM_TEMPLATES.map((t) => t.id).join(', ')}`)
      }
      const target = resolve(opts.dir, `${name}.json`)
      if (existsSync(target)) throw new CliError(`${target} already exists`)
      const title = opts.title?.trim() || template?.name || name
      const jsonconfig = template ? await templateConfig(template.id) : emptyFormConfig()
      const document = { name: title, jsonconfig, process: recordOnlyProcess(title) }
      writeFileSync(target, JSON.stringify(document, null, 2) + '\n', { flag: 'wx' })
      console.log(`wrote ${target}`)
    })
}
