import { test } from '@japa/runner'
import { coreRegistry, withDefaults } from '@tramita/contract'
import { FormStore } from '../src/form/store.js'
import { formTexts, hasTranslations } from '../src/form/texts.js'

const CONFIG = {
  form: { pages: [{ name: 'Datos', layout: [['nombre'], ['enviar']] }] },
  fields: [
    {
      field_name: 'nombre',
      type: 'text',
      data: { label: { value: 'Nombre' }, validate: { required: true } },
      translations: { en: { 'label.value': 'Name' } },
    },
  ],
  elements: [{ field_name: 'enviar', type: 'send', data: {} }],
}

test.group('form texts per language', () => {
  test('only a form that gives some text in a language loads the code that applies it', async ({ assert }) => {
    assert.isTrue(hasTranslations(CONFIG))
    assert.isTrue(hasTranslations({ elements: [{ translations: { zh: { value: '发送' } } }] }))
    for (const none of [{ fields: [{ translations: {} }] }, { fields: [] }, null, 'x', { fields: 'x' }]) {
      assert.isFalse(hasTranslations(none), JSON.stringify(none))
      assert.isUndefined(await formTexts(none, 'en'))
    }
    assert.equal((await formTexts(CONFIG, 'zh'))?.language, 'zh')
  })

  test('the store shows the language asked for, switches without losing values, and keeps its rules', async ({
    assert,
  }) => {
    const store = new FormStore({
      config: withDefaults(CONFIG),
      registry: coreRegistry(),
      mode: 'new',
      task: 'start',
      values: {},
      texts: await formTexts(CONFIG, 'en'),
    })
    assert.equal(store.config.fields[0]!.data.label.value, 'Name')
    store.setText('nombre', 'Ana')
    store.localize('es')
    assert.equal(store.config.fields[0]!.data.label.value, 'Nombre')
    assert.equal(store.payload().nombre, 'Ana')
    // The missing-required list names fields in the language shown.
    store.setText('nombre', '')
    assert.deepEqual(
      store.missing().map((m) => m.label),
      ['Nombre']
    )
    store.localize('en')
    assert.deepEqual(
      store.missing().map((m) => m.label),
      ['Name']
    )
  })
})
