import { test } from '@japa/runner'
import { coreRegistry, repeatCells, withDefaults } from '@tramita/contract'
import { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { FormStore } from '../src/form/store.js'
import { hasScripts } from '../src/form/scripts.js'

/** A group whose passport cell shows per row for a passport, and only outside Colombia. */
const CONFIG = {
  form: { pages: [{ name: 'P', layout: [['pais'], ['hijos']] }] },
  fields: [
    { field_name: 'pais', type: 'text', data: {} },
    {
      field_name: 'hijos',
      type: 'repeat',
      data: {
        label: { value: 'Hijos' },
        min_rows: 1,
        max_rows: 3,
        cells: [
          { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
          {
            field_name: 'doc',
            type: 'select',
            data: {
              options: [
                { id: 'pp', label: 'Pasaporte' },
                { id: 'ti', label: 'Tarjeta' },
              ],
            },
          },
          {
            field_name: 'pasaporte',
            type: 'text',
            data: {
              label: { value: 'Pasaporte' },
              validate: { required: true },
              show_with_formule: "row.doc === 'pp' && pais !== 'CO'",
            },
          },
        ],
      },
    },
  ],
}

test.group('form store: repeating groups', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('starts with min_rows rows; cell conditions run per row and follow the rows and the form', async ({
    assert,
  }) => {
    assert.isTrue(hasScripts(CONFIG as never), 'a cell’s condition is a script of the form')
    const store = new FormStore({
      config: withDefaults(CONFIG),
      registry: coreRegistry(),
      mode: 'new',
      task: 'start',
      values: {},
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
    })
    await store.start()
    const passport = repeatCells(store.item('hijos')!.item)[2]!
    assert.deepEqual(store.value('hijos'), [{ nombre: '', doc: '', pasaporte: '' }])
    assert.deepEqual(
      store.missing().map((m) => m.label),
      ['Hijos (Fila 1): Nombre']
    )
    store.setValue('hijos', [
      { nombre: 'Ana', doc: 'pp', pasaporte: '' },
      { nombre: 'Luis', doc: 'ti', pasaporte: '' },
    ])
    await store.idle()
    assert.isTrue(store.isCellShown('hijos.0.pasaporte', passport))
    assert.isFalse(store.isCellShown('hijos.1.pasaporte', passport))
    assert.deepEqual(
      store.missing().map((m) => m.field),
      ['hijos.0.pasaporte']
    )
    // A form field the condition reads hides the cell in every row.
    store.setValue('pais', 'CO')
    await store.idle()
    assert.isFalse(store.isCellShown('hijos.0.pasaporte', passport))
    assert.deepEqual(store.missing(), [])
    assert.deepEqual(store.payload().hijos, [
      { nombre: 'Ana', doc: 'pp', pasaporte: '' },
      { nombre: 'Luis', doc: 'ti', pasaporte: '' },
    ])
  })
})

test.group('form store: computed cells', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a formula cell follows its row; what is typed while it runs is kept', async ({ assert }) => {
    const store = new FormStore({
      config: withDefaults({
        form: { pages: [{ name: 'P', layout: [['compras']] }] },
        fields: [
          {
            field_name: 'compras',
            type: 'repeat',
            data: {
              min_rows: 1,
              cells: [
                { field_name: 'cantidad', type: 'number', data: {} },
                {
                  field_name: 'doble',
                  type: 'number',
                  data: { formule: "row.cantidad === '' ? '' : row.cantidad * 2" },
                },
              ],
            },
          },
        ],
      }),
      registry: coreRegistry(),
      mode: 'new',
      task: 'start',
      values: {},
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
    })
    await store.start()
    // Two keystrokes, the second before the first one's evaluation has come back.
    store.setValue('compras', [{ cantidad: 1, doble: '' }])
    store.setValue('compras', [{ cantidad: 12, doble: '' }])
    await store.idle()
    assert.deepEqual(store.value('compras'), [{ cantidad: 12, doble: 24 }])
  })
})
