import { test } from '@japa/runner'
import { LANGUAGES } from '@tramita/i18n'
import {
  Translations,
  TRANSLATABLE,
  configJsonSchema,
  coreRegistry,
  localizeConfig,
  localizeItem,
  translationKey,
  validateConfig,
  withDefaults,
  type FormConfigInput,
} from '../src/index.js'

type Items = NonNullable<FormConfigInput['fields']>
const form = (fields: Items, elements: Items = []): FormConfigInput => ({
  form: { pages: [{ name: 'Uno', layout: [[...fields, ...elements].map((f) => f.field_name!)] }] },
  fields,
  elements,
})

const send = { field_name: 'enviar', type: 'send', data: {}, translations: { en: { value: 'Send' } } }

const colour = {
  field_name: 'color',
  type: 'select',
  data: {
    label: { value: 'Color', description: 'Elija uno' },
    ref: { placeholder: 'Seleccione' },
    options: [
      { id: 'r', label: 'Rojo' },
      { id: 7, label: 'Verde' },
    ],
  },
  translations: {
    en: { 'label.value': 'Colour', 'ref.placeholder': 'Choose', 'options.7.label': 'Green', 'options.r.label': '' },
    zh: { 'label.value': '颜色' },
  },
}

test.group('Form translations', () => {
  test('the translations schema has one key per language of @tramita/i18n', ({ assert }) => {
    assert.sameMembers(Object.keys(Translations.properties), [...LANGUAGES])
  })

  test('a language shows its translations and the form text where none is given', ({ assert }) => {
    const config = withDefaults(form([colour], [send]), coreRegistry())
    const english = localizeConfig(config, 'en').fields[0]!
    // An element's text too, even where the form keeps the type's default.
    assert.equal(localizeConfig(config, 'en').elements[0]!.data.value, 'Send')
    assert.equal(config.elements[0]!.data.value, 'Enviar')
    assert.equal(english.data.label.value, 'Colour')
    assert.equal(english.data.label.description, 'Elija uno')
    assert.equal(english.data.ref.placeholder, 'Choose')
    const options = (english.data as unknown as { options: { id: unknown; label: string }[] }).options
    // Named by id, not position; an empty translation shows the form's own text.
    assert.deepEqual(
      options.map((o) => o.label),
      ['Rojo', 'Green']
    )
    // The designed config is not touched, and a language with nothing to show gives the same object.
    assert.equal(config.fields[0]!.data.label.value, 'Color')
    assert.strictEqual(localizeConfig(config, 'es'), config)
    const chinese = localizeConfig(config, 'zh')
    assert.equal(chinese.fields[0]!.data.label.value, '颜色')
    assert.strictEqual(chinese.elements, config.elements)
  })

  test('a key naming nothing (an option since removed, a list, a number) is ignored', ({ assert }) => {
    const item = {
      data: { label: { value: 'A' }, options: [{ id: 'x', label: 'X' }], height: 4 },
      translations: { en: { 'options.gone.label': 'No', options: 'No', height: '9', 'label.value.deeper': 'No' } },
    }
    assert.strictEqual(localizeItem(item, 'en'), item)
  })

  test('a text path inside the data becomes a key naming list entries by id or name', ({ assert }) => {
    const data = {
      options: [{ id: 'a' }, { id: 3 }],
      columns: [{ name: 'total' }],
      body: { shape: [{ label: '' }, { label: '' }] },
    }
    assert.equal(translationKey(data, ['label', 'value']), 'label.value')
    assert.equal(translationKey(data, ['options', 1, 'label']), 'options.3.label')
    assert.equal(translationKey(data, ['columns', 0, 'label']), 'columns.total.label')
    assert.equal(translationKey(data, ['body', 'shape', 1, 'label']), 'body.shape.1.label')
  })

  test('the schema marks the texts a reader sees, and a bad translation is a problem at its path', ({ assert }) => {
    const select = configJsonSchema(coreRegistry())
    const text = JSON.stringify(select)
    assert.include(text, `"${TRANSLATABLE}":true`)
    assert.deepEqual(validateConfig(form([colour])), [])
    const bad = { ...colour, translations: { fr: { 'label.value': 'Couleur' }, en: { 'label.value': 3 } } }
    const paths = validateConfig(form([bad as never])).map((p) => p.path)
    assert.includeMembers(paths, ['/fields/0/translations/fr', '/fields/0/translations/en/label.value'])
  })
})
