import { test } from '@japa/runner'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { screensModuleSource } from '@tramita/plugin-api/discover'
import { defineWebPlugin, type PluginScreen } from '@tramita/plugin-api/web'

/** A plugin folder: its package.json exports, files, and (optionally) its three locale files. */
async function plugin(root: string, id: string, exports: Record<string, string>, files: Record<string, string>) {
  await mkdir(join(root, id), { recursive: true })
  await writeFile(join(root, id, 'package.json'), JSON.stringify({ name: id, type: 'module', exports }))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, id, path, '..'), { recursive: true })
    await writeFile(join(root, id, path), text)
  }
}

const SCREENS = (paths: string[]) =>
  `import { defineWebPlugin } from '@tramita/plugin-api/web'\n` +
  `export default defineWebPlugin({ screens: [${paths
    .map((path) => `{ path: ${JSON.stringify(path)}, load: () => import('./screen.ts') }`)
    .join(', ')}] })\n`

test.group('plugin screens: virtual:tramita-screens', (group) => {
  let root: string
  group.each.setup(async () => {
    // Inside the repository, where the generated module's imports resolve as in a bundle.
    root = await mkdtemp(join(process.cwd(), 'tmp-screens-'))
    return () => rm(root, { recursive: true, force: true })
  })

  test('enabled plugins exporting ./screens, in load order, with their texts; disabled ones are not in it', async ({
    assert,
  }) => {
    const locales = {
      'locales/es.json': '{"a":"uno"}',
      'locales/en.json': '{"a":"one"}',
      'locales/zh.json': '{"a":"一"}',
    }
    await plugin(
      root,
      'docs',
      { './screens': './web/index.ts' },
      { 'web/index.ts': SCREENS(['/docs', '/docs/:id']), 'web/screen.ts': 'export default 1\n', ...locales }
    )
    await plugin(
      root,
      'quiet',
      { './screens': './web/index.ts' },
      { 'web/index.ts': SCREENS(['/quiet']), 'web/screen.ts': 'export default 2\n' }
    )
    await plugin(root, 'server-only', { '.': './index.ts' }, { 'index.ts': 'export default {}\n' })
    await plugin(
      root,
      'disabled',
      { './screens': './web/index.ts' },
      { 'web/index.ts': SCREENS(['/off']), 'web/screen.ts': 'export default 3\n' }
    )

    const source = screensModuleSource(root, ['quiet', 'server-only', 'docs'])
    assert.notInclude(source, 'disabled')
    const file = join(root, 'generated.ts')
    await writeFile(file, source)
    const generated = (await import(pathToFileURL(file).href)).default as {
      plugin: string
      screens: PluginScreen[]
      texts: Record<string, () => Promise<unknown>> | null
    }[]
    assert.deepEqual(
      generated.map((entry) => [
        entry.plugin,
        entry.screens.map((s) => s.path),
        entry.texts && Object.keys(entry.texts),
      ]),
      [
        ['quiet', ['/quiet'], null],
        ['docs', ['/docs', '/docs/:id'], ['es', 'en', 'zh']],
      ]
    )
    // A screen's code is a lazy import, loaded only when asked for.
    assert.equal(((await generated[1]!.screens[0]!.load()) as { default: number }).default, 1)
    assert.include(source, join(root, 'docs', 'locales', 'zh.json'))
  })

  test('no plugin with screens: an empty list', ({ assert }) => {
    assert.equal(screensModuleSource(root, []), 'export default [\n]\n')
  })

  test('defineWebPlugin refuses a path that is not the app’s own, and a path declared twice', ({ assert }) => {
    const load = async () => ({ default: null })
    for (const path of ['documents', '/a/../b', 'https://x.test/a', '/a?b=1', '/a/*', '/A']) {
      assert.throws(() => defineWebPlugin({ screens: [{ path, load }] }), /Invalid screen path/)
    }
    assert.throws(
      () =>
        defineWebPlugin({
          screens: [
            { path: '/a', load },
            { path: '/a', load },
          ],
        }),
      /declared twice/
    )
    assert.lengthOf(defineWebPlugin({ screens: [{ path: '/static/public/:token', load, public: true }] }).screens, 1)
  })
})
