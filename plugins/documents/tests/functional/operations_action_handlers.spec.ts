import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { coreActionTypes, createActionTypeRegistry } from '@tramita/contract'
import { actionsModuleSource } from '@tramita/plugin-api/discover'
import handlers, { documentsActionHandlers, idsField, types, type DocumentsStep } from '../../web/action_handlers.js'
import { OPERATIONS_PATHS } from '../../shared/operations.js'

/** A step as the engine gives it: `${name}` filled from `values`; what the handler did is recorded. */
function fakeStep(values: Record<string, string>, answer: unknown = null) {
  const calls: { op: string; args: unknown[] }[] = []
  const set: Record<string, unknown> = {}
  const step: DocumentsStep = {
    form: {
      setValue: (name, value) => void (set[name] = value),
      overlays: {
        track<T>(name: string, work: Promise<T>) {
          calls.push({ op: 'track', args: [name] })
          return work
        },
      },
    },
    host: {
      async post(path, fields) {
        calls.push({ op: 'post', args: [path, fields] })
        return answer
      },
      toast: (kind, key) => void calls.push({ op: 'toast', args: [kind, key] }),
    },
    fill: (template) => template.replace(/\$\{(\w+)\}/g, (_, name: string) => values[name] ?? ''),
  }
  return { step, calls, set }
}

const handler = (type: string, list = handlers) => {
  const found = list.find((h) => h.type === type)
  if (!found) throw new Error(`no handler ${type}`)
  return found
}

test.group('documents action handlers', () => {
  test('each document action type has a handler, and the types join the core registry', ({ assert }) => {
    const names = [
      'search_doc_folder',
      'get_info_doc_folder',
      'copy_cut_docs',
      'rename_doc_folder',
      'merge_docs',
      'zip_docs',
    ]
    assert.sameMembers(
      handlers.map((h) => h.type),
      names
    )
    assert.sameMembers(
      types.map((t) => t.type),
      names
    )
    const registry = createActionTypeRegistry([...coreActionTypes, ...types])
    assert.equal(registry.require('zip_docs').plugin, 'documents')
    assert.isTrue(handlers.every((h) => h.plugin === 'documents'))
  })

  test('virtual:tramita-actions composes the documents handlers when both plugins are enabled', ({ assert }) => {
    const pluginsDir = fileURLToPath(new URL('../../../', import.meta.url))
    const source = actionsModuleSource(pluginsDir, ['actions', 'documents'])
    assert.include(source, 'documents/web/action_handlers.ts')
    assert.include(source, '...(plugin0.types ?? [])')
    assert.notInclude(actionsModuleSource(pluginsDir, ['actions']), 'action_handlers')
  })

  test("ids typed as a list or as JSON become the routes' JSON list", ({ assert }) => {
    assert.equal(idsField('3, 4,5'), '["3","4","5"]')
    assert.equal(idsField(' [7, 8] '), '[7, 8]')
    assert.equal(idsField(''), '[]')
  })

  test('search_doc_folder posts the filters and puts the rows, folders first, into the field', async ({ assert }) => {
    const answer = { documents: [{ id: 9, name: 'acta.pdf' }], folders: [{ id: 2, name: 'Actas' }] }
    const { step, calls, set } = fakeStep({ buscar: 'acta', carpeta: '2' }, answer)
    await handler('search_doc_folder').run(
      {
        type_search: 'all',
        text: '${buscar}',
        id_folder: '${carpeta}',
        path: '',
        subfolders: true,
        jsonwhere: '{"extension": "pdf"}',
        field: 'resultados',
      },
      step
    )
    assert.deepEqual(calls, [
      {
        op: 'post',
        args: [
          OPERATIONS_PATHS.search,
          {
            type_search: 'all',
            id_folder: '2',
            path: '',
            subcarpetas: 'true',
            jsonwhere: JSON.stringify({ extension: 'pdf', text: 'acta' }),
          },
        ],
      },
    ])
    assert.deepEqual(set.resultados, [
      { kind: 'folder', id: 2, name: 'Actas' },
      { kind: 'doc', id: 9, name: 'acta.pdf' },
    ])
  })

  test('search_doc_folder refuses a jsonwhere that is not an object before calling', async ({ assert }) => {
    const { step, calls } = fakeStep({})
    const run = handler('search_doc_folder').run({ type_search: 'doc', jsonwhere: '[1]', field: 'r' }, step)
    await assert.rejects(() => run, /jsonwhere/)
    assert.lengthOf(calls, 0)
  })

  test('get_info_doc_folder asks info_doc or info_folder and keeps the answer in the field', async ({ assert }) => {
    const doc = fakeStep({ id: '12' }, { id: 12, pages: 3 })
    await handler('get_info_doc_folder').run({ kind: 'doc', id: '${id}', field: 'info' }, doc.step)
    assert.deepEqual(doc.calls[0]!.args, [OPERATIONS_PATHS.infoDoc, { id_doc: '12' }])
    assert.deepEqual(doc.set.info, { id: 12, pages: 3 })
    const folder = fakeStep({}, { id: 4, files: 2 })
    await handler('get_info_doc_folder').run({ kind: 'folder', id: '4', field: 'info' }, folder.step)
    assert.deepEqual(folder.calls[0]!.args, [OPERATIONS_PATHS.infoFolder, { id_folder: '4' }])
  })

  test('copy_cut_docs sends the type, the ids as JSON lists and the destination', async ({ assert }) => {
    const { step, calls } = fakeStep({ docs: '5,6', dest: '3' })
    await handler('copy_cut_docs').run({ type: 'cut', documents: '${docs}', folders: '', folder_dest: '${dest}' }, step)
    assert.deepEqual(calls[0]!.args, [
      OPERATIONS_PATHS.copy,
      { type: 'cut', id_doc: '["5","6"]', id_folder: '[]', folder_dest: '3' },
    ])
  })

  test('rename_doc_folder calls rename_doc or rename_folder with the filled name', async ({ assert }) => {
    const doc = fakeStep({ nombre: 'Ana' })
    await handler('rename_doc_folder').run({ kind: 'doc', id: '8', name: 'Contrato ${nombre}' }, doc.step)
    assert.deepEqual(doc.calls[0]!.args, [OPERATIONS_PATHS.renameDoc, { id_doc: '8', name_doc: 'Contrato Ana' }])
    const folder = fakeStep({})
    await handler('rename_doc_folder').run({ kind: 'folder', id: '2', name: 'Archivo' }, folder.step)
    assert.deepEqual(folder.calls[0]!.args, [OPERATIONS_PATHS.renameFolder, { id_folder: '2', name_folder: 'Archivo' }])
  })

  test('merge_docs and zip_docs download the result through the progress panel unless saved', async ({ assert }) => {
    const downloads: unknown[][] = []
    const list = documentsActionHandlers(async (...args) => void downloads.push(args))
    const { step, calls } = fakeStep({ ids: '1,2', who: 'Ana' })
    await handler('merge_docs', list).run(
      { documents: '${ids}', name: 'Expediente ${who}', save: false, folder: '' },
      step
    )
    await handler('zip_docs', list).run({ documents: '[3]', name: 'todo.zip', save: false, folder: '' }, step)
    assert.deepEqual(downloads, [
      [
        OPERATIONS_PATHS.merge,
        {
          rutes_merge: '["1","2"]',
          name_doc: 'Expediente Ana.pdf',
          type_merge: 'merge_docs',
          save_doc: 'false',
          folder_id: '',
        },
        'Expediente Ana.pdf',
      ],
      [
        OPERATIONS_PATHS.merge,
        { rutes_merge: '[3]', name_doc: 'todo.zip', type_merge: 'zip_docs', save_doc: 'false', folder_id: '' },
        'todo.zip',
      ],
    ])
    assert.deepEqual(
      calls.map((c) => c.op),
      ['track', 'track']
    )
  })

  test('a saved merge posts, keeps the filed document in the field and says doc_subido_success', async ({ assert }) => {
    const downloads: unknown[] = []
    const list = documentsActionHandlers(async () => void downloads.push(1))
    const { step, calls, set } = fakeStep({ carpeta: '7' }, { code: 'doc_subido_success', file: { id: 30 } })
    await handler('merge_docs', list).run(
      { documents: '1,2', name: 'junto', save: true, folder: '${carpeta}', field: 'archivo' },
      step
    )
    assert.lengthOf(downloads, 0)
    assert.deepEqual(calls, [
      {
        op: 'post',
        args: [
          OPERATIONS_PATHS.merge,
          {
            rutes_merge: '["1","2"]',
            name_doc: 'junto.pdf',
            type_merge: 'merge_docs',
            save_doc: 'true',
            folder_id: '7',
          },
        ],
      },
      { op: 'track', args: ['junto.pdf'] },
      { op: 'toast', args: ['success', 'doc_subido_success'] },
    ])
    assert.deepEqual(set.archivo, { id: 30 })
  })

  test('a failed call rejects (the engine reports it and stops the action), nothing is toasted', async ({ assert }) => {
    const { step, calls } = fakeStep({})
    step.host.post = async () => {
      throw new Error('No se pudo copiar')
    }
    await assert.rejects(
      () => handler('merge_docs').run({ documents: '1', name: 'x', save: true, folder: '', field: '' }, step),
      'No se pudo copiar'
    )
    assert.notInclude(
      calls.map((c) => c.op),
      'toast'
    )
  })
})
