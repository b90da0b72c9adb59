import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { PASSWORD, login, makeUser, resetAuthTables, tokenFor, totp } from '#tests/helpers/auth'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { appUrl } from '#lib/app_url'

const NEW_PASSWORD = 'Nueva#Clave2027'

/** Asks for a recovery mail and returns the token from the link that arrives over SMTP. */
async function recoveryToken(
  client: Parameters<typeof login>[0],
  identifier: string,
  email: string,
  headers: Record<string, string> = {}
) {
  const before = mailsTo(email).length
  const response = await client
    .put(`/data/forgetPassword/${encodeURIComponent(identifier)}`)
    .headers(headers)
    .form({ case: 'PUT' })
  response.assertStatus(200)
  const mail = await waitForMail(email, (m) => mailsTo(email).indexOf(m) >= before)
  const link = /(https?:\/\/\S+\/forgetpassword\/([A-Za-z0-9_-]+))/.exec(mail.text)
  if (!link) throw new Error(`no link in: ${mail.text}`)
  return { url: link[1], token: link[2], mail }
}

test.group('password recovery', (group) => {
  group.each.setup(resetAuthTables)

  test('the mail arrives over SMTP and its link changes the password once', async ({ client, assert }) => {
    await makeUser({ username: 'lola', email: 'lola@example.test' })
    const { token, url, mail } = await recoveryToken(client, 'lola', 'lola@example.test')
    assert.equal(mail.subject, 'Recupera tu contraseña')
    assert.isTrue(url.startsWith(`${appUrl()}/forgetpassword/`))
    assert.isAtLeast(Buffer.from(token, 'base64url').length, 16)
    const change = await client
      .put(`/data/changePassword/${token}`)
      .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    change.assertStatus(200)
    assert.equal(change.body().data.redirect_ms, 2000)
    ;(await login(client, 'lola', NEW_PASSWORD)).assertStatus(200)
    ;(await login(client, 'lola', PASSWORD)).assertStatus(400)
    const reuse = await client
      .put(`/data/changePassword/${token}`)
      .form({ case: 'PUT', password: 'Otra#Clave2028', confirmation: 'Otra#Clave2028' })
    reuse.assertStatus(400)
    reuse.assertBodyContains({ status: 'fail' })
    await waitForMail('lola@example.test', (m) => m.subject === 'Aviso de seguridad de tu cuenta')
  })

  test('GET tells whether a link still works without spending it', async ({ client, assert }) => {
    await makeUser({ username: 'lidia', email: 'lidia@example.test' })
    const { token } = await recoveryToken(client, 'lidia', 'lidia@example.test')
    const check = () => client.get(`/data/changePassword/${token}`)
    for (let i = 0; i < 2; i++) {
      const response = await check()
      response.assertStatus(200)
      assert.deepEqual(response.body(), { status: 'done', data: { valid: true } })
    }
    const change = await client
      .put(`/data/changePassword/${token}`)
      .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    change.assertStatus(200)
    const spent = await check()
    spent.assertStatus(200)
    assert.deepEqual(spent.body().data, { valid: false, message: translate('es', 'auth.reset_invalid') })
    for (const bogus of ['not-a-token', 'x'.repeat(300)]) {
      assert.isFalse((await client.get(`/data/changePassword/${bogus}`)).body().data.valid, bogus)
    }
  })

  test("by e-mail too, and in the caller's language", async ({ client, assert }) => {
    await makeUser({ username: 'mario', email: 'Mario@Example.test' })
    const { mail } = await recoveryToken(client, 'mario@example.test', 'Mario@Example.test', {
      'accept-language': 'en',
    })
    assert.equal(mail.subject, 'Recover your password')
  })

  test('known and unknown names get the same answer', async ({ client, assert }) => {
    await makeUser({ username: 'nora' })
    const known = await client.put('/data/forgetPassword/nora').form({ case: 'PUT' })
    const unknown = await client.put('/data/forgetPassword/nadie-sabe').form({ case: 'PUT' })
    assert.deepEqual(known.body(), unknown.body())
    assert.equal(known.status(), unknown.status())
  })

  test('the link is built from APP_URL, not the Host header', async ({ client, assert }) => {
    await makeUser({ username: 'olga', email: 'olga@example.test' })
    const { url } = await recoveryToken(client, 'olga', 'olga@example.test', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    })
    assert.notInclude(url, 'evil.example')
    assert.isTrue(url.startsWith(appUrl()))
  })

  test('an expired link is refused', async ({ client, assert }) => {
    await makeUser({ username: 'pablo', email: 'pablo@example.test' })
    const { token } = await recoveryToken(client, 'pablo', 'pablo@example.test')
    await db
      .from('password_resets')
      .update({ expires_at: DateTime.now().minus({ minutes: 1 }).toSQL({ includeOffset: false }) })
    const response = await client
      .put(`/data/changePassword/${token}`)
      .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    response.assertStatus(400)
    assert.deepEqual(response.body(), { status: 'fail', message: translate('es', 'auth.reset_invalid') })
    ;(await login(client, 'pablo', PASSWORD)).assertStatus(200)
  })

  test('a new link replaces the previous one', async ({ client, assert }) => {
    await makeUser({ username: 'quique', email: 'quique@example.test' })
    const first = await recoveryToken(client, 'quique', 'quique@example.test')
    await recoveryToken(client, 'quique', 'quique@example.test')
    const response = await client
      .put(`/data/changePassword/${first.token}`)
      .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    response.assertStatus(400)
    assert.deepEqual(response.body(), { status: 'fail', message: translate('es', 'auth.reset_invalid') })
    ;(await login(client, 'quique', PASSWORD)).assertStatus(200)
  })

  test('the password rules and the blocklist are enforced by the server', async ({ client, assert }) => {
    await makeUser({ username: 'rafa', email: 'rafa@example.test' })
    const { token } = await recoveryToken(client, 'rafa', 'rafa@example.test')
    const cases: [string, string, string][] = [
      ['cor#1A', 'cor#1A', 'min_length'],
      ['Abcd#1234x', 'Abcd#1234x', 'ascending_digits'],
      ['Abbb#1357x', 'Abbb#1357x', 'repeated_char'],
      ['Password1!', 'Password1!', 'common'],
      [NEW_PASSWORD, 'Otra#Cosa2027', 'confirmation'],
    ]
    for (const [password, confirmation, rule] of cases) {
      const response = await client.put(`/data/changePassword/${token}`).form({ case: 'PUT', password, confirmation })
      response.assertStatus(400)
      assert.include(response.body().failed, rule, password)
    }
    ;(
      await client
        .put(`/data/changePassword/${token}`)
        .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    ).assertStatus(200)
  })

  test('a reset ends every session and does not bypass two-factor', async ({ client, assert }) => {
    await makeUser({ username: 'sara', email: 'sara@example.test', requiredTfa: true })
    const enrolment = (await login(client, 'sara')).body().data
    await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(enrolment.id), ticket: enrolment.ticket, pin: await totp(enrolment.secret_code) })
    const session = (await login(client, 'sara', PASSWORD, { two_factor: enrolment.ticket })).body().data.token_new
    const { token } = await recoveryToken(client, 'sara', 'sara@example.test')
    ;(
      await client
        .put(`/data/changePassword/${token}`)
        .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    ).assertStatus(200)
    ;(await client.get('/inside/session').header('token', session)).assertStatus(401)
    const after = (await login(client, 'sara', NEW_PASSWORD)).body().data
    assert.isTrue(after.two_fa)
    assert.isNull(after.token_new)
    assert.isNull(after.secret_code, 'still enrolled: no new seed')
  })

  test('the signed-in change keeps this session and ends the others', async ({ client }) => {
    await makeUser({ username: 'tomas' })
    const keep = await tokenFor(client, 'tomas')
    const other = await tokenFor(client, 'tomas')
    const { prehash } = await import('#lib/password')
    const response = await client
      .put('/inside/users/password')
      .header('token', keep)
      .form({ case: 'PUT', current: prehash(PASSWORD), password: NEW_PASSWORD, confirmation: NEW_PASSWORD })
    response.assertStatus(200)
    ;(await client.get('/inside/session').header('token', keep)).assertStatus(200)
    ;(await client.get('/inside/session').header('token', other)).assertStatus(401)
  })
})
