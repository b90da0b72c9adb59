import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import ts from 'typescript'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')

/** The files a tsconfig names (its include and exclude, as tsc reads them), and its compiler options. */
function read(config: string) {
  const path = join(ROOT, config)
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    }
  )
  if (!parsed) throw new Error(`cannot read ${config}`)
  const { configFilePath: _, pathsBasePath: __, ...options } = parsed.options
  return { files: new Set(parsed.fileNames), options }
}

/**
 * `npm run typecheck` checks two groups of projects each as one program (config/tsconfig.*-check.json).
 * Each project's own tsconfig.json (what an editor reads) must name no file its group leaves out, and
 * ask for the same options: else a file would go unchecked, or be checked under other rules.
 */
const groups = {
  'config/tsconfig.node-check.json': [
    'core/plugin-api/tsconfig.json',
    'core/i18n/tsconfig.json',
    'core/contract/tsconfig.test.json',
    'core/sandbox/tsconfig.test.json',
    'plugins/tsconfig.json',
  ],
  'config/tsconfig.web-check.json': [
    'core/web/tsconfig.json',
    'plugins/documents/web/tsconfig.json',
    'plugins/devices/web/tsconfig.json',
    'runtime-web/tsconfig.json',
    'designer/tsconfig.json',
  ],
}

test.group('the type check groups (package.json typecheck)', () => {
  for (const [check, projects] of Object.entries(groups)) {
    test(`${check} holds every file of its projects, with their options`, ({ assert }) => {
      const group = read(check)
      for (const project of projects) {
        const own = read(project)
        assert.isAbove(own.files.size, 0, project)
        const missing = [...own.files].filter((file) => !group.files.has(file))
        assert.deepEqual(missing, [], `${project}: files the group does not check`)
        assert.deepEqual(own.options, group.options, `${project}: options other than the group's`)
      }
    })
  }
})
