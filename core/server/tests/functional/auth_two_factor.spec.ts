import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import User from '#models/user'
import { login, makeUser, resetAuthTables, solvedCaptcha, totp, PASSWORD } from '#tests/helpers/auth'
import type { ApiClient } from '@japa/api-client'

/** Enrols a user who must use two-factor; returns the seed and the recovery codes. */
async function enrol(client: ApiClient, username: string) {
  const first = await login(client, username)
  const data = first.body().data
  const check = await client
    .put('/data/users/validate/two_fa')
    .form({ case: 'PUT', id: String(data.id), ticket: data.ticket, pin: await totp(data.secret_code) })
  return { seed: data.secret_code as string, ticket: data.ticket as string, check }
}

/** A code from a later time step, so it is not the one just spent. */
const nextCode = (seed: string) => totp(seed, Date.now() + 30_000)

test.group('two-factor', (group) => {
  group.each.setup(resetAuthTables)

  test('a user who must enrol gets a seed and QR, and the first good code turns two-factor on', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'rosa', requiredTfa: true })
    const first = await login(client, 'rosa')
    first.assertStatus(200)
    const data = first.body().data
    assert.isTrue(data.two_fa)
    assert.isTrue(data.required_tfa)
    assert.isNull(data.token_new)
    assert.match(data.secret_code, /^[A-Z2-7]{16,}$/)
    assert.match(data.enrol.qr, /^data:image\/png;base64,/)
    assert.include(data.enrol.uri, 'otpauth://totp/')
    const check = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(data.id), ticket: data.ticket, pin: await totp(data.secret_code) })
    check.assertStatus(200)
    assert.isTrue(check.body().data)
    assert.lengthOf(check.body().recovery_codes, 10)
    const retry = await login(client, 'rosa', PASSWORD, { two_factor: data.ticket })
    retry.assertStatus(200)
    assert.isString(retry.body().data.token_new)
    const user = await User.findByOrFail('username', 'rosa')
    assert.isTrue(user.twoFa)
    assert.notInclude(user.twoFaSecret!, data.secret_code, 'the seed is encrypted at rest')
  })

  test('the retry without a verified ticket does not sign in', async ({ client, assert }) => {
    await makeUser({ username: 'saul', requiredTfa: true })
    const { ticket } = await enrol(client, 'saul')
    const again = await login(client, 'saul')
    assert.isTrue(again.body().data.two_fa)
    assert.isNull(again.body().data.token_new)
    // The earlier (verified) ticket is replaced by the new attempt.
    const stale = await login(client, 'saul', PASSWORD, { two_factor: ticket })
    assert.isNull(stale.body().data.token_new)
  })

  test('a code is usable once', async ({ client, assert }) => {
    await makeUser({ username: 'tere', requiredTfa: true })
    const { seed } = await enrol(client, 'tere')
    const attempt = (await login(client, 'tere')).body().data
    const code = await nextCode(seed)
    const ok = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(attempt.id), ticket: attempt.ticket, pin: code })
    assert.isTrue(ok.body().data)
    const second = (await login(client, 'tere')).body().data
    const reused = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(second.id), ticket: second.ticket, pin: code })
    assert.isFalse(reused.body().data)
  })

  test('three wrong codes end the attempt, lock the account and force the captcha', async ({ client, assert }) => {
    await makeUser({ username: 'ulises', requiredTfa: true })
    await enrol(client, 'ulises')
    const attempt = (await login(client, 'ulises')).body().data
    for (let i = 1; i <= 2; i++) {
      const wrong = await client
        .put('/data/users/validate/two_fa')
        .form({ case: 'PUT', id: String(attempt.id), ticket: attempt.ticket, pin: '000000' })
      assert.isFalse(wrong.body().data)
      assert.equal(wrong.body().attempts, i)
    }
    const third = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(attempt.id), ticket: attempt.ticket, pin: '000000' })
    third.assertStatus(423)
    third.assertBody({
      status: 'fail',
      message: translate('es', 'active_2fa_incorrect'),
      restart: true,
      captcha_required: true,
    })
    const noCaptcha = await login(client, 'ulises')
    noCaptcha.assertStatus(400)
    noCaptcha.assertBody({ status: 'fail', message: translate('es', 'auth.captcha_required'), captcha_required: true })
    const locked = await login(client, 'ulises', PASSWORD, { captcha: await solvedCaptcha(client) })
    locked.assertStatus(423)
    locked.assertBody({ status: 'fail', message: translate('es', 'auth.account_locked'), captcha_required: true })
    const user = await User.findByOrFail('username', 'ulises')
    assert.isEmpty(await db.from('sessions').where('user_id', user.id))
    assert.isTrue(user.lockedUntil! > (await import('luxon')).DateTime.now())
  })

  test('wrong codes go on counting across sign-ins: signing in again buys no fresh tries', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'ursula', requiredTfa: true })
    await enrol(client, 'ursula')
    const wrongCode = async (attempt: { id: number; ticket: string }) =>
      client
        .put('/data/users/validate/two_fa')
        .form({ case: 'PUT', id: String(attempt.id), ticket: attempt.ticket, pin: '000000' })
    const first = (await login(client, 'ursula')).body().data
    assert.equal(first.attempts, 0)
    assert.equal((await wrongCode(first)).body().attempts, 1)
    // The next sign-in says the count it continues from, and the third wrong code in all locks.
    const second = (await login(client, 'ursula')).body().data
    assert.equal(second.attempts, 1)
    assert.equal((await wrongCode(second)).body().attempts, 2)
    const third = (await login(client, 'ursula')).body().data
    assert.equal(third.attempts, 2)
    ;(await wrongCode(third)).assertStatus(423)
    const user = await User.findByOrFail('username', 'ursula')
    assert.isTrue(user.lockedUntil! > (await import('luxon')).DateTime.now())
  })

  test('a count whose ticket window has ended starts again at zero', async ({ client, assert }) => {
    await makeUser({ username: 'valeria', requiredTfa: true })
    await enrol(client, 'valeria')
    const first = (await login(client, 'valeria')).body().data
    await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(first.id), ticket: first.ticket, pin: '000000' })
    const user = await User.findByOrFail('username', 'valeria')
    const past = (await import('luxon')).DateTime.now().minus({ minutes: 1 }).toSQL({ includeOffset: false })
    await db.from('login_tickets').where('user_id', user.id).update({ expires_at: past })
    assert.equal((await login(client, 'valeria')).body().data.attempts, 0)
  })

  test('a recovery code works once', async ({ client, assert }) => {
    await makeUser({ username: 'vera', requiredTfa: true })
    const { check } = await enrol(client, 'vera')
    const code = check.body().recovery_codes[0] as string
    const attempt = (await login(client, 'vera')).body().data
    const used = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(attempt.id), ticket: attempt.ticket, pin: code.toUpperCase() })
    assert.isTrue(used.body().data)
    const next = (await login(client, 'vera')).body().data
    const again = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(next.id), ticket: next.ticket, pin: code })
    assert.isFalse(again.body().data)
  })

  test('a ticket belongs to its user', async ({ client, assert }) => {
    await makeUser({ username: 'wendy', requiredTfa: true })
    const other = await makeUser({ username: 'xavi' })
    const data = (await login(client, 'wendy')).body().data
    const response = await client
      .put('/data/users/validate/two_fa')
      .form({ case: 'PUT', id: String(other.id), ticket: data.ticket, pin: await totp(data.secret_code) })
    response.assertStatus(400)
    response.assertBody({ status: 'fail', message: translate('es', 'auth.two_fa_expired'), restart: true })
    assert.deepEqual(
      (await db.from('login_tickets').select('verified')).map((t) => Boolean(t.verified)),
      [false]
    )
  })

  test("an administrator resets a user's two-factor and the user enrols again", async ({ client, assert }) => {
    await makeUser({ username: 'admin2', role: 'superuser' })
    const target = await makeUser({ username: 'yago', requiredTfa: true, role: 'student' })
    await enrol(client, 'yago')
    const adminToken = (await login(client, 'admin2')).body().data.token_new
    const reset = await client
      .put(`/inside/users/${target.id}/two_fa/reset`)
      .header('token', adminToken)
      .form({ case: 'PUT' })
    reset.assertStatus(200)
    const again = (await login(client, 'yago')).body().data
    assert.isString(again.secret_code, 'enrolment starts over')
  })

  test("the signed-in prompt checks the code of the session's user", async ({ client, assert }) => {
    await makeUser({ username: 'zoe', requiredTfa: true })
    const { seed, ticket } = await enrol(client, 'zoe')
    const token = (await login(client, 'zoe', PASSWORD, { two_factor: ticket })).body().data.token_new
    const ok = await client
      .put('/data/users/validate/two_fa')
      .header('token', token)
      .form({ case: 'PUT', pin: await nextCode(seed) })
    assert.isTrue(ok.body().data)
    for (let i = 0; i < 2; i++) {
      const wrong = await client
        .put('/data/users/validate/two_fa')
        .header('token', token)
        .form({ case: 'PUT', pin: '111111' })
      assert.isFalse(wrong.body().data)
    }
    const third = await client
      .put('/data/users/validate/two_fa')
      .header('token', token)
      .form({ case: 'PUT', pin: '111111' })
    third.assertStatus(401)
    third.assertBody({ status: 'fail', message: translate('es', 'active_2fa_incorrect'), restart: true })
    ;(await client.get('/inside/session').header('token', token)).assertStatus(401)
  })
})
