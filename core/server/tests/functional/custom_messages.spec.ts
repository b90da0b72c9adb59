import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

/** A field whose designer worded its pattern, minimum length and required messages (Spanish, with English). */
const codigo = {
  field_name: 'codigo',
  type: 'text',
  data: {
    label: { value: 'Código' },
    ref: { pattern: '[A-Z]{3}-[0-9]+', min_length: 6 },
    validate: {
      required: true,
      messages: { pattern: 'Formato AAA-123', min_length: 'Al menos seis caracteres', required: 'Escriba el código' },
    },
  },
  translations: {
    en: {
      'validate.messages.pattern': 'Format AAA-123',
      'validate.messages.required': 'Type the code',
    },
  },
}

/** A new case refused by the server names the broken rule in the designer's words and the sender's language. */
test.group('custom validation messages on a refused submission', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  const start = async (
    client: Parameters<typeof tokenFor>[0],
    token: string,
    key: string,
    lang: string,
    values: object
  ) =>
    client
      .post('/data/form/flows/process')
      .header('token', token)
      .header('accept-language', lang)
      .form({ case: 'POST', data: key, flow_values: JSON.stringify({ nombre: 'Ana', dias: 2, ...values }) })

  test('a broken pattern, a short text and a missing value, in English and Spanish', async ({ client, assert }) => {
    const form = await publishPermit({ extraField: codigo })
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')

    for (const [lang, pattern, short, required] of [
      ['en', 'Format AAA-123', 'Al menos seis caracteres', 'Type the code'],
      ['es', 'Formato AAA-123', 'Al menos seis caracteres', 'Escriba el código'],
    ]) {
      const bad = await start(client, token, form.key, lang!, { codigo: 'abc-1' })
      bad.assertStatus(400)
      assert.deepEqual(bad.body().errors, [{ field: 'codigo', message: pattern }])
      assert.equal(bad.body().message, translate(lang!, 'engine.invalid_values', { detail: pattern }))

      const tooShort = await start(client, token, form.key, lang!, { codigo: 'ABC-1' })
      tooShort.assertStatus(400)
      assert.deepEqual(tooShort.body().errors, [{ field: 'codigo', message: short }])

      const missing = await start(client, token, form.key, lang!, {})
      missing.assertStatus(400)
      assert.deepEqual(missing.body().missing, ['codigo'])
      assert.deepEqual(missing.body().missing_messages, [{ field: 'codigo', message: required }])
    }

    const fine = await start(client, token, form.key, 'en', { codigo: 'ABC-12' })
    fine.assertStatus(200)
  })
})
