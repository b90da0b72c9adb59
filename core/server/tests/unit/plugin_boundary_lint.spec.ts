import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { ESLint } from 'eslint'

/**
 * The plugin boundary in eslint.config.js (issue 19): ESLint's own API lints small snippets as if they
 * were files at plugin paths, so what is checked is the repository's real configuration.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const RULE = 'no-restricted-imports'
const linter = new ESLint({ cwd: ROOT })

/** The boundary's messages for `import x from '<specifier>'` in a file at `path` (repository-relative). */
async function refusals(assert: Assert, path: string, specifier: string): Promise<string[]> {
  // Proves the rule is on at that path, so "no message" below means allowed, not unchecked.
  const config = await linter.calculateConfigForFile(path)
  assert.equal(config?.rules?.[RULE]?.[0], 2, `${RULE} is on for ${path}`)
  const [result] = await linter.lintText(`import x from '${specifier}'\nexport default x\n`, { filePath: path })
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message)
}

async function assertRefused(assert: Assert, path: string, specifier: string, reason: RegExp) {
  const messages = await refusals(assert, path, specifier)
  assert.lengthOf(messages, 1, `${specifier} from ${path}: ${messages.join(' | ')}`)
  assert.match(messages[0]!, reason, `${specifier} from ${path}`)
}

async function assertAllowed(assert: Assert, path: string, specifier: string) {
  assert.deepEqual(await refusals(assert, path, specifier), [], `${specifier} from ${path}`)
}

const SERVER = 'plugins/documents/server/library/uploads.ts'
const SERVER_ROOT = 'plugins/documents/server/index.ts'
const MIGRATION = 'plugins/documents/server/migrations/1099_example.ts'
const WEB = 'plugins/documents/web/library/FileList.tsx'
const WEB_ROOT = 'plugins/documents/web/index.ts'
const SHARED = 'plugins/documents/shared/library.ts'
const OTHER_PLUGIN = 'plugins/devices/server/index.ts'

test.group('plugin boundary (eslint.config.js)', (group) => {
  // Loading the configuration (typescript-eslint included) takes seconds: once, outside the tests' time limit.
  group.setup(async () => {
    await linter.calculateConfigForFile(SERVER)
  })

  test('core/server internals are refused, by alias, by relative path and by any path naming core/server', async ({
    assert,
  }) => {
    for (const specifier of ['#services/storage', '#models/user', '#lib/envelope', '#controllers/uploads_controller']) {
      await assertRefused(assert, SERVER, specifier, /aliases are core\/server's inside/)
    }
    await assertRefused(assert, SERVER, '../../../../core/server/app/services/storage.js', /stays inside its plugin/)
    await assertRefused(assert, SERVER_ROOT, '../../../core/server/app/lib/envelope.ts', /stays inside its plugin/)
    await assertRefused(assert, OTHER_PLUGIN, '/srv/tramita/core/server/app/models/user.js', /core\/server is/)
    await assertRefused(assert, SERVER, '@tramita/server', /imports only @tramita\/plugin-api/)
    await assertRefused(assert, SERVER, '@tramita/server/bin/boot.ts', /imports only @tramita\/plugin-api/)
  })

  test("runtime-web, the designer's source and another plugin's folder or package are refused", async ({ assert }) => {
    await assertRefused(assert, WEB, '../../../../runtime-web/src/form/store.ts', /stays inside its plugin/)
    await assertRefused(assert, WEB_ROOT, '../../../designer/src/App.tsx', /stays inside its plugin/)
    await assertRefused(assert, WEB, '@tramita/runtime-web', /imports only @tramita\/plugin-api/)
    await assertRefused(assert, WEB, '@tramita/designer', /imports only @tramita\/plugin-api/)
    await assertRefused(assert, SERVER, '../../../actions/web/index.js', /stays inside its plugin/)
    await assertRefused(assert, SERVER_ROOT, '../../documents/shared/library.js', /stays inside its plugin/)
    await assertRefused(assert, OTHER_PLUGIN, '../../documents/server/index.js', /stays inside its plugin/)
    await assertRefused(assert, 'plugins/devices/index.ts', '..', /stays inside its plugin/)
    await assertRefused(assert, SERVER, '@tramita/plugin-actions', /imports only @tramita\/plugin-api/)
    await assertRefused(assert, WEB, '@tramita/plugin-actions/web', /imports only @tramita\/plugin-api/)
  })

  test('the framework only as @adonisjs/lucid/schema in migrations; Node modules only on the server side', async ({
    assert,
  }) => {
    await assertAllowed(assert, MIGRATION, '@adonisjs/lucid/schema')
    await assertRefused(assert, SERVER, '@adonisjs/lucid/schema', /only in server\/migrations/)
    await assertRefused(assert, SERVER, '@adonisjs/lucid/services/db', /through the plugin context/)
    await assertRefused(assert, MIGRATION, '@adonisjs/lucid/services/db', /only @adonisjs\/lucid\/schema/)
    await assertRefused(assert, SERVER, '@adonisjs/core/services/app', /through the plugin context/)
    for (const specifier of ['node:fs', 'node:stream/promises', 'node:crypto']) {
      await assertAllowed(assert, SERVER, specifier)
      await assertRefused(assert, WEB, specifier, /no Node modules/)
      await assertRefused(assert, SHARED, specifier, /no Node modules/)
    }
    await assertRefused(assert, SHARED, 'fs', /no Node modules/)
    await assertRefused(assert, WEB_ROOT, 'path', /no Node modules/)
  })

  test("the plugin API, the shared packages, npm packages and the plugin's own files are allowed", async ({
    assert,
  }) => {
    const packages = [
      '@tramita/plugin-api',
      '@tramita/plugin-api/web',
      '@tramita/contract',
      '@tramita/contract/evaluate',
      '@tramita/web/api',
      '@tramita/i18n',
      '@tramita/sandbox',
    ]
    for (const path of [SERVER, SERVER_ROOT, WEB, SHARED, OTHER_PLUGIN]) {
      for (const specifier of packages) await assertAllowed(assert, path, specifier)
    }
    await assertAllowed(assert, SERVER, 'pdf-lib')
    await assertAllowed(assert, WEB, 'react')
    await assertAllowed(assert, WEB, '@dnd-kit/core')
    await assertAllowed(assert, SERVER, '../../shared/library.js')
    await assertAllowed(assert, SERVER, '../sharing/access.js')
    await assertAllowed(assert, SERVER_ROOT, '../shared/settings.js')
    // The plugin's own designer/ folder is not the designer app.
    await assertAllowed(assert, WEB_ROOT, '../designer/fields.js')
    await assertAllowed(assert, WEB, './Row.js')
  })

  test("a plugin's tests may use the core's test helpers and sources", async ({ assert }) => {
    const path = 'plugins/documents/tests/functional/library_upload.spec.ts'
    const config = await linter.calculateConfigForFile(path)
    assert.equal(config?.rules?.[RULE]?.[0], 0)
    const [result] = await linter.lintText(
      "import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'\nexport default makeUser\n",
      { filePath: path }
    )
    assert.deepEqual(
      result!.messages.filter((m) => m.ruleId === RULE),
      []
    )
  })
})
