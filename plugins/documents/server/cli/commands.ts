import type { PluginCommand } from '@tramita/plugin-api'
import { exportTree } from './export_tree.js'
import { importTree } from './import_tree.js'
import { ocrCommand } from './ocr_command.js'
import { retentionCommand } from './retention.js'

const print = (line: string) => console.log(line)

/** The folder argument and the options both commands take. */
function parse(args: string[], options: Record<string, unknown>, command: string) {
  const [dir, ...extra] = args
  if (!dir || extra.length > 0) throw new Error(`usage: tramita documents:${command} DIR [--folder F] [--owner U]`)
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined)
  return { dir, options: { folder: text(options.folder), owner: text(options.owner) } }
}

const OPTIONS: PluginCommand['options'] = [
  { flags: '--folder <path>', description: 'a folder of the library, as A/B/C from the owner’s root' },
  { flags: '--owner <username>', description: 'whose library (default: the first superuser)' },
]

/** The operator's commands: `tramita documents:import`, `documents:export`, `documents:retention` and `documents:ocr`. */
export const documentsCommands: PluginCommand[] = [
  {
    name: 'import',
    description:
      'import a folder tree into the library (folders as in the tree; files checked as uploads; reruns import each file once; the quota is not applied)',
    options: OPTIONS,
    async run(args, options, ctx) {
      const { dir, options: opts } = parse(args, options, 'import')
      const summary = await importTree(ctx, dir, opts, print)
      // Files refused by the upload checks were not imported: say so in the exit code too.
      if (summary.refused > 0) process.exitCode = 1
    },
  },
  {
    name: 'export',
    description:
      'write the library (or --folder of it) to a folder: current versions, names made safe, nothing outside it',
    options: OPTIONS,
    async run(args, options, ctx) {
      const { dir, options: opts } = parse(args, options, 'export')
      await exportTree(ctx, dir, opts, print)
    },
  },
  retentionCommand(print),
  ocrCommand(print),
]
