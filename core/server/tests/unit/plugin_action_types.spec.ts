import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { definitionProblems, recordOnlyProcess, type ActionTypeRegistry } from '@tramita/contract'
import { actionTypesModuleSource } from '@tramita/plugin-api/discover'
import { actionTypeRegistry, loadPluginActionTypes } from '#plugins/action_types'
import { PLUGINS_DIR } from '#plugins/enabled'

/** Forms are validated against the action types the runtime runs: the core's and the plugins' `./action-types`. */
test.group('plugin action types on the server', () => {
  test('the documents and devices plugins bring theirs; a form using them validates, an unknown type does not', async ({
    assert,
  }) => {
    const types = (await loadPluginActionTypes(['documents', 'devices'])).map((t) => t.type)
    assert.includeMembers(types, ['merge_docs', 'zip_docs', 'scan_document', 'print_document'])
    assert.deepEqual(await loadPluginActionTypes(['exams']), [], 'a plugin without the export brings none')

    const form = (type: string) => ({
      form: { pages: [{ name: 'P', layout: [['archivo']] }] },
      fields: [{ field_name: 'archivo', type: 'file', data: { label: { value: 'Archivo' } } }],
      validations: { actions: [{ name: 'a', actions: [{ type, config: { field: 'archivo' } }] }] },
    })
    const registry = await actionTypeRegistry()
    const problems = (type: string) =>
      definitionProblems(form(type), recordOnlyProcess('P'), { actionTypes: registry }).map((p) => p.message)
    assert.deepEqual(problems('scan_document'), [])
    assert.match(problems('no_such_step').join('\n'), /"no_such_step" is not a known action type/)
  })

  test('the designer gets the same types from its generated module; a disabled plugin brings none', async ({
    assert,
    cleanup,
  }) => {
    // Written inside the repository, where its imports resolve as in a bundle.
    const dir = await mkdtemp(join(process.cwd(), 'tmp-action-types-'))
    cleanup(() => rm(dir, { recursive: true, force: true }))
    const load = async (ids: string[], name: string) => {
      const file = join(dir, `${name}.ts`)
      await writeFile(file, actionTypesModuleSource(PLUGINS_DIR, ids))
      return ((await import(pathToFileURL(file).href)) as { actionTypes: ActionTypeRegistry }).actionTypes
    }
    const names = (registry: ActionTypeRegistry) => registry.list().map((t) => t.type)
    const both = await load(['actions', 'documents', 'devices', 'exams'], 'both')
    const server = await actionTypeRegistry()
    assert.sameMembers(names(both), names(server), 'the server and the designer check steps against the same types')
    assert.includeMembers(names(both), ['scan_document', 'print_document', 'merge_docs'])

    const withoutDevices = await load(['actions', 'documents'], 'documents')
    assert.include(names(withoutDevices), 'merge_docs')
    assert.notInclude(names(withoutDevices), 'scan_document')
    assert.notInclude(
      actionTypesModuleSource(PLUGINS_DIR, ['exams']),
      'import types',
      'no plugin types: the core registry'
    )
  })
})
