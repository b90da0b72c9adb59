import { test } from '@japa/runner'
import { RegexValidator } from 'survey-core'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { checkText, validateConfig, validateSubmission } from '../../src/index.js'
import { importFormio, importSurveyJs } from '../../src/importers/index.js'
import { surveyPattern } from '../../src/importers/validation.js'
import { itemOf, reasonAt, unmappedPaths } from './helpers.js'

/** Form.io components with every kind of validation extra the importer reads. */
const formio = {
  i18n: {
    en: { 'Solo letras mayúsculas': 'Capital letters only', '{{field}} es obligatorio': '{{field}} is required' },
    'zh-CN': { 'Solo letras mayúsculas': '仅限大写字母' },
    fr: { 'Solo letras mayúsculas': 'Majuscules seulement' },
  },
  components: [
    {
      type: 'textfield',
      key: 'sigla',
      label: 'Sigla',
      validate: {
        required: true,
        pattern: '[A-Z]+',
        patternMessage: 'Solo letras mayúsculas',
        minLength: 2,
        maxLength: 6,
      },
      errors: {
        required: '{{field}} es obligatorio',
        minLength: 'Mínimo {{ length }} letras',
        maxLength: 'Máximo {{length}} letras',
        pattern: 'never shown: patternMessage wins',
        invalid_date: 'not a rule here',
      },
      unique: true,
    },
    {
      type: 'textarea',
      key: 'motivo',
      label: 'Motivo',
      validate: { minLength: 10, customMessage: 'Cuéntenos un poco más ({{ data.otro }})' },
    },
    {
      type: 'number',
      key: 'edad',
      label: 'Edad',
      validate: { min: 18, max: 99 },
      errors: { min: 'Debe ser mayor de edad', max: 'Máximo {{max}}' },
    },
    { type: 'email', key: 'correo', label: 'Correo', errors: { invalid_email: 'Correo no válido' } },
    { type: 'checkbox', key: 'acepto', label: 'Acepto', validate: { customMessage: 'Sin reglas', minLength: 2 } },
  ],
}

/** SurveyJS questions with messages as plain texts and as locale maps. */
const surveyjs = {
  locale: 'es',
  pages: [
    {
      name: 'p',
      elements: [
        {
          type: 'text',
          name: 'codigo',
          isRequired: true,
          requiredErrorText: { default: 'Escriba el código', en: 'Type the code', zh: '请输入代码' },
          validators: [
            { type: 'text', minLength: 3, maxLength: 8, text: { default: 'Entre 3 y 8', en: 'From 3 to 8' } },
            { type: 'regex', regex: '\\d{2}', text: { default: 'Con dos cifras', en: 'With two digits' } },
            { type: 'regex', regex: '^x$' },
          ],
        },
        {
          type: 'text',
          name: 'cantidad',
          inputType: 'number',
          validators: [{ type: 'numeric', minValue: 1, maxValue: 10, text: 'Entre 1 y 10' }],
        },
        {
          type: 'text',
          name: 'correo',
          validators: [{ type: 'email', text: { default: 'Correo no válido', en: 'Not an e-mail' } }],
        },
        {
          type: 'text',
          name: 'telefono',
          inputType: 'tel',
          validators: [{ type: 'text', minLength: 7, text: 'Muy corto' }],
        },
        {
          type: 'text',
          name: 'clave',
          validators: [{ type: 'regex', regex: '^[a-z]+$', caseInsensitive: true }],
        },
        { type: 'comment', name: 'nota', requiredErrorText: 'Sin efecto: no es obligatoria' },
      ],
    },
  ],
}

test.group('importers: validation messages, minimum length and patterns', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('Form.io: minLength, patternMessage, errors and customMessage become the rules and their words', ({
    assert,
  }) => {
    const result = importFormio(formio)
    const sigla = itemOf(result, 'sigla')
    assert.deepInclude(sigla.data.ref, { pattern: '[A-Z]+', min_length: 2, limit: 6 })
    assert.deepEqual(sigla.data.validate, {
      required: true,
      messages: {
        required: 'Sigla es obligatorio',
        pattern: 'Solo letras mayúsculas',
        min_length: 'Mínimo 2 letras',
        max_length: 'Máximo 6 letras',
      },
    })
    // The form's i18n gives the messages in English and Chinese (zh-CN); French is not one of ours.
    assert.deepEqual(sigla.translations, {
      en: { 'validate.messages.pattern': 'Capital letters only', 'validate.messages.required': 'Sigla is required' },
      zh: { 'validate.messages.pattern': '仅限大写字母' },
    })
    // customMessage words every rule in force; a Form.io template other than the settings stays and is reported.
    assert.deepEqual(itemOf(result, 'motivo').data.validate.messages, {
      min_length: 'Cuéntenos un poco más ({{ data.otro }})',
    })
    assert.equal(itemOf(result, 'motivo').data.ref.min_length, 10)
    assert.deepEqual(itemOf(result, 'edad').data.validate.messages, { min: 'Debe ser mayor de edad', max: 'Máximo 99' })
    assert.deepEqual(itemOf(result, 'correo').data.validate.messages, { email: 'Correo no válido' })
    assert.isUndefined(itemOf(result, 'acepto').data.validate)

    assert.equal(
      reasonAt(result, '/components/0/unique'),
      'no uniqueness check: a form alone cannot see the values of other cases'
    )
    assert.equal(reasonAt(result, '/components/0/errors/pattern'), 'Form.io shows the custom message instead')
    assert.equal(reasonAt(result, '/components/0/errors/invalid_date'), 'no "invalid_date" rule here')
    assert.equal(
      reasonAt(result, '/components/1/validate/customMessage'),
      'placeholders other than field, length, min, max and pattern stay as written'
    )
    assert.equal(
      reasonAt(result, '/components/4/validate/minLength'),
      'a minimum length is kept for text, textarea and e-mail fields only'
    )
    assert.equal(
      reasonAt(result, '/components/4/validate/customMessage'),
      'the field has no rule here whose message it would be'
    )
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('SurveyJS: requiredErrorText and the validators texts, in every language of their locale maps', ({ assert }) => {
    const result = importSurveyJs(surveyjs)
    const codigo = itemOf(result, 'codigo')
    assert.deepInclude(codigo.data.ref, { min_length: 3, limit: 8, pattern: '[\\s\\S]*(?:\\d{2})[\\s\\S]*' })
    assert.deepEqual(codigo.data.validate, {
      required: true,
      messages: {
        required: 'Escriba el código',
        min_length: 'Entre 3 y 8',
        max_length: 'Entre 3 y 8',
        pattern: 'Con dos cifras',
      },
    })
    assert.deepInclude(codigo.translations!.en!, {
      'validate.messages.required': 'Type the code',
      'validate.messages.min_length': 'From 3 to 8',
      'validate.messages.max_length': 'From 3 to 8',
      'validate.messages.pattern': 'With two digits',
    })
    assert.deepEqual(codigo.translations!.zh, { 'validate.messages.required': '请输入代码' })
    assert.deepEqual(itemOf(result, 'cantidad').data.validate.messages, { min: 'Entre 1 y 10', max: 'Entre 1 y 10' })
    assert.equal(itemOf(result, 'correo').type, 'email')
    assert.deepEqual(itemOf(result, 'correo').translations, { en: { 'validate.messages.email': 'Not an e-mail' } })

    assert.includeMembers(unmappedPaths(result), [
      '/pages/0/elements/0/validators/2',
      '/pages/0/elements/3/validators/0/minLength',
      '/pages/0/elements/3/validators/0/text',
      '/pages/0/elements/4/validators/0/caseInsensitive',
      '/pages/0/elements/5/requiredErrorText',
    ])
    assert.equal(
      reasonAt(result, '/pages/0/elements/0/validators/2'),
      'a field keeps one pattern; this is a second one'
    )
    assert.equal(
      reasonAt(result, '/pages/0/elements/5/requiredErrorText'),
      'only the message of a required field is kept'
    )
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('an imported form refuses a submission in the reader language with the source words', async ({ assert }) => {
    const config = importSurveyJs(surveyjs).config
    const submit = (values: Record<string, unknown>, lang: string) =>
      validateSubmission(config, values, { case: 'new', runner, lang })
    assert.deepEqual((await submit({ codigo: '12' }, 'en')).errors, [{ field: 'codigo', message: 'From 3 to 8' }])
    assert.deepEqual((await submit({ codigo: 'abcdef' }, 'es')).errors, [
      { field: 'codigo', message: 'Con dos cifras' },
    ])
    assert.deepEqual((await submit({ codigo: 'abc12' }, 'en')).errors, [])
    assert.deepEqual((await submit({ codigo: 'abc12', cantidad: 11 }, 'en')).errors, [
      { field: 'cantidad', message: 'Entre 1 y 10' },
    ])
    const missing = await submit({}, 'zh')
    assert.deepEqual(
      missing.missing.map((m) => m.message),
      ['请输入代码']
    )
    const formioConfig = importFormio(formio).config
    const formioResult = await validateSubmission(formioConfig, { sigla: 'ab' }, { case: 'new', runner, lang: 'en' })
    assert.deepEqual(formioResult.errors, [{ field: 'sigla', message: 'Capital letters only' }])
  })

  test('a SurveyJS regex matches where SurveyJS finds it; an anchored one is kept as written', ({ assert }) => {
    const cases: [string, string[]][] = [
      ['\\d{2}', ['12', 'ab12cd', 'a1', 'x', '1 2', 'línea\n12']],
      ['^[A-Z][0-9]$', ['A1', 'A12', 'a1', ' A1']],
      ['^ab', ['abc', 'cab', 'ab']],
      ['c$', ['abc', 'cab', 'c']],
      ['a|b', ['xa', 'bx', 'c']],
    ]
    assert.equal(surveyPattern('^[A-Z][0-9]$'), '^[A-Z][0-9]$')
    for (const [regex, values] of cases) {
      const pattern = surveyPattern(regex)
      for (const value of values) {
        const survey = new RegexValidator(regex).validate(value) === null
        assert.equal(checkText(value, { pattern }).valid, survey, `${regex} on ${JSON.stringify(value)}`)
      }
    }
  })
})
