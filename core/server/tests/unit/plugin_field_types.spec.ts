import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  coreRegistry,
  registryWithPlugins,
  validateConfig,
  withDefaults,
  type FieldTypeRegistry,
  type PluginFieldTypes,
} from '@tramita/contract'
import { fieldTypesModuleSource, readEnabledPluginIds } from '@tramita/plugin-api/discover'
import { loadPluginFieldTypes } from '#plugins/field_types'

const FIXTURES = fileURLToPath(new URL('../fixtures/plugins', import.meta.url))

const form = (value: unknown = {}) => ({
  form: { pages: [{ name: 'P', layout: [['score']] }] },
  fields: [{ field_name: 'score', type: 'fixture_score', data: value }],
})

test.group('plugin field types: from an enabled plugin to the registry', () => {
  test('the server loads the types of the plugins that export ./types; the registry validates with them', async ({
    assert,
  }) => {
    const loaded = await loadPluginFieldTypes(['fixture-types', 'absent'], FIXTURES)
    assert.deepEqual(
      loaded.map((p) => [p.plugin, p.types.map((t) => t.type)]),
      [['fixture-types', ['fixture_score']]]
    )
    const registry = registryWithPlugins(loaded)
    assert.include(
      registry.list('field').map((t) => t.type),
      'fixture_score',
      'the palette lists every registered type'
    )
    assert.isAbove(registry.list('field').length, coreRegistry().list('field').length)
    assert.deepEqual(validateConfig(form(), registry), [])
    assert.deepEqual(
      validateConfig(form({ top: 0 }), registry).map((p) => p.path),
      ['/fields/0/data/top']
    )
    assert.isNotEmpty(validateConfig(form(), coreRegistry()), 'the core alone does not know the type')
    assert.equal((withDefaults(form(), registry).fields[0]!.data as unknown as { top: number }).top, 10)
    const score = registry.require('field', 'fixture_score')
    assert.deepEqual(score.validate({ data: { top: 10 } }, 11), ['above 10'])
  })

  test('the browser bundles get the same list from the generated module', async ({ assert }) => {
    const source = fieldTypesModuleSource(FIXTURES, ['absent', 'fixture-types'])
    assert.notInclude(source, 'absent')
    // Written inside the repository, where its import of @tramita/contract resolves as in a bundle.
    const dir = await mkdtemp(join(process.cwd(), 'tmp-field-types-'))
    type Generated = { default: PluginFieldTypes[]; registry: FieldTypeRegistry }
    const load = async (text: string, name: string) => {
      const file = join(dir, `${name}.ts`)
      await writeFile(file, text)
      return (await import(pathToFileURL(file).href)) as Generated
    }
    try {
      const generated = await load(source, 'with-plugins')
      assert.deepEqual(
        generated.default.map((p) => p.plugin),
        ['fixture-types']
      )
      assert.isDefined(generated.registry.get('field', 'fixture_score'))
      // No plugin types: the core registry itself, without the code that composes one.
      const none = fieldTypesModuleSource(FIXTURES, [])
      assert.notInclude(none, 'registryWithPlugins')
      const plain = await load(none, 'none')
      assert.deepEqual(plain.default, [])
      assert.strictEqual(plain.registry, coreRegistry())
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('a plugin type may not take a taken name; no plugin types is the core registry', ({ assert }) => {
    assert.throws(
      () => registryWithPlugins([{ plugin: 'x', types: [coreRegistry().require('field', 'text')] }]),
      /Plugin "x" .* "text" of the core/
    )
    assert.strictEqual(registryWithPlugins([{ plugin: 'x', types: [] }]), coreRegistry())
    assert.throws(() => registryWithPlugins([{ plugin: 'x', types: [{} as never] }]), /not made with defineFieldType/)
  })

  test('the enabled list: TRAMITA_PLUGINS first, else the plugins file', ({ assert }) => {
    assert.deepEqual(readEnabledPluginIds('/nowhere.json', ' a, ,b '), ['a', 'b'])
    assert.deepEqual(readEnabledPluginIds('/nowhere.json', undefined), [])
  })
})
