import { test } from '@japa/runner'
import { validateConfig } from '../../src/index.js'
import { detectFormFormat, importForm } from '../../src/importers/index.js'
import { formioWizard } from './fixtures/formio-wizard.js'
import { surveyJsSurvey } from './fixtures/surveyjs-survey.js'

const jsonconfig = {
  form: {
    display: 'wizard',
    pages: [{ name: 'Datos', layout: [['nombre', 'edad'], ['enviar']] }],
  },
  validations: { autocomplete: [], actions: [] },
  fields: [
    { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
    { field_name: 'edad', type: 'number', data: { show_with_formule: 'nombre != ""', limit: { min: 0, max: 120 } } },
  ],
  elements: [{ field_name: 'enviar', type: 'send', data: {} }],
}

test.group('importForm', () => {
  test('a valid jsonconfig comes back unchanged', ({ assert }) => {
    assert.deepEqual(validateConfig(jsonconfig), [])
    const result = importForm(jsonconfig)
    assert.deepEqual(result, { config: jsonconfig, unmapped: [], format: 'jsonconfig' })
    assert.notStrictEqual(result.config, jsonconfig)
  })

  test('an invalid jsonconfig comes back as it is, with its problems in unmapped', ({ assert }) => {
    const broken = { form: { pages: [{ name: 'P', layout: [['nadie']] }] } }
    const result = importForm(broken)
    assert.deepEqual(result.config, broken)
    assert.deepEqual(result.unmapped, [
      { path: '/form/pages/0/layout/0/0', reason: 'not valid: "nadie" is not a field or element of this form' },
    ])
  })

  test('detects each format by the keys it is built around', ({ assert }) => {
    assert.equal(detectFormFormat(jsonconfig), 'jsonconfig')
    assert.equal(detectFormFormat(formioWizard), 'formio')
    assert.equal(detectFormFormat({ display: 'form', components: [] }), 'formio')
    assert.equal(detectFormFormat(surveyJsSurvey), 'surveyjs')
    assert.equal(detectFormFormat({ elements: [] }), 'surveyjs')
    assert.equal(detectFormFormat({ questions: [] }), 'surveyjs')
    assert.isUndefined(detectFormFormat({ pages: [{ name: 'x' }] }))
    assert.isUndefined(detectFormFormat('form'))
    assert.isUndefined(detectFormFormat(null))
  })

  test('a format can be forced', ({ assert }) => {
    const both = { components: [{ type: 'textfield', key: 'a' }], pages: [{ elements: [{ type: 'text', name: 'b' }] }] }
    assert.equal(importForm(both).format, 'formio')
    const forced = importForm(both, 'surveyjs')
    assert.equal(forced.format, 'surveyjs')
    assert.deepEqual(
      forced.config.fields!.map((f) => f!.field_name),
      ['b']
    )
  })

  test('an unknown format, or a forced format that does not fit, throws', ({ assert }) => {
    assert.throws(() => importForm({ hello: 'world' }), /Unknown form format/)
    assert.throws(() => importForm(surveyJsSurvey, 'formio'), /Not a Form.io form/)
    assert.throws(() => importForm(formioWizard, 'surveyjs'), /Not a SurveyJS survey/)
    assert.throws(() => importForm([], 'jsonconfig'), /Not a jsonconfig/)
  })

  test('an empty definition still gives a valid form with one page', ({ assert }) => {
    for (const empty of [{ components: [] }, { pages: [] }]) {
      const result = importForm(empty, Array.isArray((empty as { pages?: unknown }).pages) ? 'surveyjs' : 'formio')
      assert.isAtLeast(result.config.form!.pages!.length, 1)
      assert.deepEqual(validateConfig(result.config), [])
    }
  })
})
