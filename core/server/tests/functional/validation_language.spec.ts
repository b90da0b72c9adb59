import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

/** A body refused by its validator reads in the caller's language, naming the field as the screen does. */
test.group('validation refusals in the caller language', (group) => {
  group.each.setup(resetAuthTables)

  test('{$self}: an invalid e-mail and a missing name on a new user')
    .with(['es', 'en', 'zh'] as const)
    .run(async ({ client, assert }, lang) => {
      const boss = await makeUser({ username: `jefa-${lang}`, role: 'superuser' })
      const token = await tokenFor(client, boss.username)
      const badEmail = await client
        .post('/inside/users')
        .header('token', token)
        .header('accept-language', lang)
        .form({ case: 'POST', username: `nueva-${lang}`, first_name: 'Nueva', email: 'no es un correo' })
      badEmail.assertStatus(422)
      assert.deepEqual(badEmail.body(), {
        status: 'fail',
        message: translate(lang, 'auth.field_invalid', { field: translate(lang, 'users.field.email') }),
      })
      const noName = await client
        .post('/inside/users')
        .header('token', token)
        .header('accept-language', lang)
        .form({ case: 'POST', username: `otra-${lang}` })
      noName.assertStatus(422)
      assert.deepEqual(noName.body(), {
        status: 'fail',
        message: translate(lang, 'auth.field_required', { field: translate(lang, 'users.field.first_name') }),
      })
    })
})
