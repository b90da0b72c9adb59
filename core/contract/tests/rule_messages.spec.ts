import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { translate, type Language } from '@tramita/i18n'
import {
  checkText,
  coreRegistry,
  customMessage,
  localizeConfig,
  missingRequired,
  declaredState,
  validateConfig,
  validateSubmission,
  withDefaults,
  type FormItem,
} from '../src/index.js'

/** A form whose designer worded the rules' messages, in Spanish with English translations. */
const worded = {
  form: { pages: [{ name: 'P', layout: [['codigo', 'nota', 'dias', 'correo']] }] },
  fields: [
    {
      field_name: 'codigo',
      type: 'text',
      data: {
        ref: { pattern: '[A-Z0-9]+', min_length: 4, limit: 8 },
        validate: {
          required: true,
          messages: { required: 'Falta el código', pattern: 'Solo mayúsculas y cifras', min_length: 'Mínimo 4' },
        },
      },
      translations: {
        en: {
          'validate.messages.required': 'The code is missing',
          'validate.messages.pattern': 'Capitals and digits only',
          'validate.messages.min_length': 'At least 4',
        },
      },
    },
    { field_name: 'nota', type: 'textarea', data: { ref: { min_length: 3, limit: 5 } } },
    {
      field_name: 'dias',
      type: 'number',
      data: { limit: { min: 1, max: 30 }, validate: { messages: { max: 'Máximo un mes' } } },
      translations: { en: { 'validate.messages.max': 'One month at most' } },
    },
    {
      field_name: 'correo',
      type: 'email',
      data: { validate: { messages: { email: 'Correo institucional, por favor' } } },
    },
  ],
}

/** What the runtime reads: the config with its defaults, in the reader's language. */
function runtimeItem(name: string, lang: Language): FormItem {
  return localizeConfig(withDefaults(worded), lang).fields.find((f) => f.field_name === name)!
}

/** The runtime's message for a typed text: the contract's check, then the custom or product text. */
function runtimeTextMessage(name: string, value: string, lang: Language): string | null {
  const item = runtimeItem(name, lang)
  const ref = item.data.ref as typeof item.data.ref & { min_length: number }
  const check = checkText(value, { ...ref, minLength: ref.min_length })
  if (check.message === null) return null
  const rule = check.message === 'info_invalida' ? 'pattern' : 'min_length'
  return customMessage(item, rule) ?? check.message
}

test.group('custom validation messages (runtime and server read the same rule)', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })
  const submit = (values: Record<string, unknown>, lang?: string) =>
    validateSubmission(worded, values, { case: 'new', runner, lang })

  test('a broken pattern and a short text read the designer words, in the reader language', async ({ assert }) => {
    for (const [lang, pattern, short] of [
      ['es', 'Solo mayúsculas y cifras', 'Mínimo 4'],
      ['en', 'Capitals and digits only', 'At least 4'],
      // No Chinese translation: the form's own words.
      ['zh', 'Solo mayúsculas y cifras', 'Mínimo 4'],
    ] as const) {
      assert.equal(runtimeTextMessage('codigo', 'ab-1', lang), pattern)
      assert.equal(runtimeTextMessage('codigo', 'AB1', lang), short)
      assert.isNull(runtimeTextMessage('codigo', 'AB12', lang))
      const bad = await submit({ codigo: 'ab-1' }, lang)
      assert.deepEqual(bad.errors, [{ field: 'codigo', message: pattern }])
      const tooShort = await submit({ codigo: 'AB1' }, lang)
      assert.deepEqual(tooShort.errors, [{ field: 'codigo', message: short }])
      assert.isTrue((await submit({ codigo: 'AB12' }, lang)).ok)
    }
  })

  test('without custom words the product message reads in the reader language', async ({ assert }) => {
    for (const lang of ['es', 'en', 'zh'] as const) {
      assert.equal(runtimeTextMessage('nota', 'ab', lang), 'min_length')
      const short = await submit({ codigo: 'AB12', nota: 'ab' }, lang)
      assert.deepEqual(short.errors, [
        { field: 'nota', message: translate(lang, 'contract.errors.text_min', { min: 3 }) },
      ])
      const long = await submit({ codigo: 'AB12', nota: 'abcdefg' }, lang)
      assert.deepEqual(long.errors, [
        { field: 'nota', message: translate(lang, 'contract.errors.text_limit', { limit: 5 }) },
      ])
      const few = await submit({ codigo: 'AB12', dias: 0 }, lang)
      assert.deepEqual(few.errors, [
        { field: 'dias', message: translate(lang, 'contract.errors.number_min', { min: 1 }) },
      ])
      const email = await submit({ codigo: 'AB12', correo: 'nadie' }, lang)
      assert.deepEqual(email.errors, [{ field: 'correo', message: 'Correo institucional, por favor' }])
    }
    assert.notEqual(
      translate('es', 'contract.errors.text_min', { min: 3 }),
      translate('en', 'contract.errors.text_min', { min: 3 })
    )
  })

  test('number bounds and required read the designer words', async ({ assert }) => {
    const many = await submit({ codigo: 'AB12', dias: 45 }, 'en')
    assert.deepEqual(many.errors, [{ field: 'dias', message: 'One month at most' }])
    assert.deepEqual((await submit({ codigo: 'AB12', dias: 45 }, 'es')).errors, [
      { field: 'dias', message: 'Máximo un mes' },
    ])
    for (const [lang, message] of [
      ['es', 'Falta el código'],
      ['en', 'The code is missing'],
    ] as const) {
      const result = await submit({}, lang)
      assert.isFalse(result.ok)
      assert.deepEqual(result.missing, [{ field: 'codigo', page: 0, label: 'codigo', message }])
      // The runtime's list comes from the same function over the form it shows.
      const shown = localizeConfig(withDefaults(worded), lang)
      assert.deepEqual(missingRequired(shown, {}, declaredState(shown), coreRegistry()), result.missing)
    }
  })

  test('forms without messages stay valid and unchanged: defaults are blank and checks as before', async ({
    assert,
  }) => {
    const plain = {
      form: { pages: [{ name: 'P', layout: [['a', 'b', 'c']] }] },
      fields: [
        { field_name: 'a', type: 'text', data: { validate: { required: true }, ref: { pattern: '[0-9]+' } } },
        { field_name: 'b', type: 'number', data: { limit: { min: 2 } } },
        { field_name: 'c', type: 'select', data: { options: [] } },
      ],
    }
    assert.deepEqual(validateConfig(plain), [])
    assert.deepEqual(validateConfig(worded), [])
    const resolved = withDefaults(plain)
    assert.deepEqual(resolved.fields[0]!.data.validate, {
      required: true,
      messages: { required: '', pattern: '', min_length: '', max_length: '' },
    })
    assert.equal((resolved.fields[0]!.data.ref as Record<string, unknown>).min_length, 0)
    assert.deepEqual(resolved.fields[1]!.data.validate, {
      required: false,
      messages: { required: '', min: '', max: '' },
    })
    assert.deepEqual(resolved.fields[2]!.data.validate, { required: false, messages: { required: '' } })
    const result = await validateSubmission(plain, { a: 'x', b: 1 }, { case: 'new', runner, lang: 'en' })
    assert.deepEqual(result.errors, [
      { field: 'a', message: translate('en', 'contract.errors.info_invalida') },
      { field: 'b', message: translate('en', 'contract.errors.number_min', { min: 2 }) },
    ])
    const missing = await validateSubmission(plain, {}, { case: 'new', runner })
    assert.deepEqual(missing.missing, [{ field: 'a', page: 0, label: 'a' }])
  })

  test('a message is a translatable text; a wrong one is a problem at its path', ({ assert }) => {
    const problems = validateConfig({
      ...worded,
      fields: [{ field_name: 'x', type: 'text', data: { validate: { messages: { pattern: 3, nope: 'x' } } } }],
    })
    assert.includeMembers(
      problems.map((p) => p.path),
      ['/fields/0/data/validate/messages/pattern', '/fields/0/data/validate/messages/nope']
    )
    // A minimum above the maximum could never be met (a mask removes the maximum).
    const impossible = (ref: Record<string, unknown>) =>
      validateConfig({
        form: { pages: [{ name: 'P', layout: [['x']] }] },
        fields: [{ field_name: 'x', type: 'text', data: { ref } }],
      })
    assert.deepEqual(impossible({ min_length: 6, limit: 4 }), [
      { path: '/fields/0/data/ref/min_length', message: 'the minimum length (6) is above the maximum length (4)' },
    ])
    assert.deepEqual(impossible({ min_length: 4, limit: 4 }), [])
    assert.deepEqual(impossible({ min_length: 6, limit: 4, mask: '######' }), [])
    assert.deepEqual(impossible({ min_length: 6 }), [])
    // A custom message with only spaces is no message: the product's shows.
    const blank = { data: { validate: { messages: { pattern: '  ' } } } }
    assert.isUndefined(customMessage(blank, 'pattern'))
  })
})
