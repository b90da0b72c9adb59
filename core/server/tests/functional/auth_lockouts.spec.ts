import { constants, publicEncrypt } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { DateTime } from 'luxon'
import AuditLog from '#models/audit_log'
import PasswordReset from '#models/password_reset'
import User from '#models/user'
import { hashToken, newToken } from '#lib/tokens'
import {
  ACCOUNT_FAILURE_CEILING,
  ADDRESS_FAILURE_CEILING,
  AUTH_REQUESTS_PER_MINUTE,
  recordFailure,
} from '#services/auth/throttle'
import { PASSWORD, login, makeUser, resetAuthTables, totp } from '#tests/helpers/auth'
import { LDAP_PEOPLE } from '#tests/helpers/ldap_server'

const TOO_MANY_REQUESTS = { status: 'fail', message: translate('es', 'auth.too_many_requests') }
const TOO_MANY_ATTEMPTS = { status: 'fail', message: translate('es', 'auth.too_many_attempts'), captcha_required: true }
const TOO_MANY_FROM_ADDRESS = {
  ...TOO_MANY_ATTEMPTS,
  message: translate('es', 'auth.too_many_attempts_address'),
}
const NEW_PASSWORD = 'Nueva#Clave2027'

/** What the browser sends for a directory user: the password under the RSA key validate/ldap gave. */
async function directoryPassword(client: ApiClient, name: string, password: string): Promise<string> {
  const key = await client.post('/inside/users/validate/ldap').form({ case: 'POST', name_user: name })
  return publicEncrypt(
    { key: key.body().data.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password)
  ).toString('base64')
}

/**
 * One user per sign-in path, each ready for the request that would let them in: a local user, one
 * allowed the API, a directory user (with the encrypted password at hand) and a two-factor user
 * holding a verified ticket (the retry that trades it for a session is what is left).
 */
async function people(client: ApiClient) {
  await makeUser({ username: 'ana' })
  await makeUser({ username: 'robot', apiEnabled: true })
  const lina = await makeUser({ username: 'lina' })
  lina.authSource = 'ldap'
  lina.passwordHash = null
  await lina.save()
  await makeUser({ username: 'tere', requiredTfa: true })
  const first = (await login(client, 'tere')).body().data
  const verified = await client
    .put('/data/users/validate/two_fa')
    .form({ case: 'PUT', id: String(first.id), ticket: first.ticket, pin: await totp(first.secret_code) })
  verified.assertStatus(200)
  const linaPassword = await directoryPassword(client, 'lina', LDAP_PEOPLE.lina)
  return {
    seed: first.secret_code as string,
    /** The sign-ins that would succeed, by path. */
    signIns: {
      password: () => login(client, 'ana'),
      api: () => login(client, 'robot', PASSWORD, { type_login: 'api' }),
      directory: () => client.put('/data/login').form({ case: 'PUT', user: 'lina', password: linaPassword }),
      'two-factor': () => login(client, 'tere', PASSWORD, { two_factor: first.ticket }),
    } as Record<string, () => Promise<ApiResponse>>,
  }
}

/** What a sign-in leaves behind: sessions, API tokens, verified tickets spent. */
async function credentials() {
  return {
    sessions: await db.from('sessions').select('id').orderBy('id'),
    apiTokens: await db.from('api_tokens').select('id').orderBy('id'),
    tickets: await db.from('login_tickets').select('id', 'verified', 'failures').orderBy('id'),
    users: await db.from('users').select('id', 'password_hash', 'last_login_at').orderBy('id'),
  }
}

/** The client address the server sees, from the audit of one failed sign-in. */
async function serverSeenAddress(client: ApiClient): Promise<string> {
  await login(client, 'nadie', 'Mala#Clave2026')
  return (await AuditLog.query().where('action', 'login.failed').orderBy('id', 'desc').firstOrFail()).ip!
}

test.group('sign-in lock-outs', (group) => {
  group.each.setup(resetAuthTables)

  test('past the failure ceiling of an account, each sign-in path refuses it with the right password', async ({
    client,
    assert,
  }) => {
    const { signIns } = await people(client)
    // The failures come from elsewhere: only the accounts' counters reach their ceiling.
    for (const name of ['ana', 'robot', 'lina', 'tere']) {
      for (let i = 0; i < ACCOUNT_FAILURE_CEILING; i++) await recordFailure(name, '203.0.113.9')
    }
    const before = await credentials()
    for (const [path, signIn] of Object.entries(signIns)) {
      const refused = await signIn()
      assert.equal(refused.status(), 429, `${path}: ${refused.text()}`)
      assert.deepEqual(refused.body(), TOO_MANY_ATTEMPTS, path)
    }
    assert.deepEqual(await credentials(), before)
    // Another account from the same address still gets in: the lock is the account's.
    await makeUser({ username: 'otra' })
    ;(await login(client, 'otra')).assertStatus(200)
  })

  test('past the failure ceiling of an address, each sign-in path refuses every account from it', async ({
    client,
    assert,
  }) => {
    const ip = await serverSeenAddress(client)
    const { signIns } = await people(client)
    for (let i = 1; i < ADDRESS_FAILURE_CEILING; i++) await recordFailure(`x${i}`, ip)
    const before = await credentials()
    for (const [path, signIn] of Object.entries(signIns)) {
      const refused = await signIn()
      assert.equal(refused.status(), 429, `${path}: ${refused.text()}`)
      assert.deepEqual(refused.body(), TOO_MANY_FROM_ADDRESS, path)
    }
    assert.deepEqual(await credentials(), before)
  })

  test('each of the seven sign-in paths is rate limited per address, and the refused request does nothing', async ({
    client,
    assert,
  }) => {
    const { seed } = await people(client)
    const ticket = (await login(client, 'tere')).body().data.ticket as string
    const resetToken = newToken()
    const ana = await User.findByOrFail('username', 'ana')
    await PasswordReset.create({
      tokenHash: hashToken(resetToken),
      userId: ana.id,
      expiresAt: DateTime.now().plus({ minutes: 30 }),
      usedAt: null,
    })
    const paths: { name: string; filler: () => Promise<ApiResponse>; right: () => Promise<ApiResponse> }[] = [
      {
        name: 'password',
        filler: () => client.put('/data/login').form({ case: 'PUT' }),
        right: () => login(client, 'ana'),
      },
      {
        name: 'API sign-in',
        filler: () => client.put('/data/login').form({ case: 'PUT' }),
        right: () => login(client, 'robot', PASSWORD, { type_login: 'api' }),
      },
      {
        name: 'two-factor',
        filler: () => client.put('/data/users/validate/two_fa').form({ case: 'PUT' }),
        right: async () =>
          client.put('/data/users/validate/two_fa').form({ case: 'PUT', ticket, pin: await totp(seed) }),
      },
      {
        name: 'LDAP check',
        filler: () => client.post('/inside/users/validate/ldap').form({ case: 'POST' }),
        right: () => client.post('/inside/users/validate/ldap').form({ case: 'POST', name_user: 'lina' }),
      },
      {
        name: 'recovery',
        filler: () => client.put('/data/forgetPassword/nadie').form({ case: 'PUT' }),
        right: () => client.put('/data/forgetPassword/ana').form({ case: 'PUT' }),
      },
      {
        name: 'password change',
        filler: () => client.put('/data/changePassword/x').form({ case: 'PUT' }),
        right: () =>
          client
            .put(`/data/changePassword/${resetToken}`)
            .form({ case: 'PUT', password: NEW_PASSWORD, confirmation: NEW_PASSWORD }),
      },
      {
        name: 'reset link check',
        filler: () => client.get('/data/changePassword/x'),
        right: () => client.get(`/data/changePassword/${resetToken}`),
      },
    ]
    for (const path of paths) {
      // Each path counts apart; the password and API sign-ins share one route, so one count.
      await db.from('rate_limits').where('key', 'like', '%auth_req%').delete()
      for (let i = 0; i < AUTH_REQUESTS_PER_MINUTE; i++) {
        const filler = await path.filler()
        assert.notEqual(filler.status(), 429, `${path.name}, request ${i + 1}`)
      }
      const before = await credentials()
      const refused = await path.right()
      assert.equal(refused.status(), 429, `${path.name}: ${refused.text()}`)
      assert.deepEqual(refused.body(), TOO_MANY_REQUESTS, path.name)
      assert.isAbove(Number(refused.header('retry-after')), 0, path.name)
      assert.deepEqual(await credentials(), before, path.name)
    }
    assert.isNull((await PasswordReset.findByOrFail('tokenHash', hashToken(resetToken))).usedAt)
    assert.isEmpty(await db.from('password_resets').where('user_id', ana.id).whereNotNull('used_at'))
  })
})
