import { test } from '@japa/runner'
import { definitionProblems, recordOnlyProcess } from '@tramita/contract'
import { actionTypeRegistry, loadPluginActionTypes } from '#plugins/action_types'

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
})
