import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import Area from '#models/area'
import { PASSWORD, login, makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

type Client = Parameters<typeof tokenFor>[0]

const FORBIDDEN = { status: 'fail', message: translate('es', 'auth.forbidden') }

/** The target's row, credentials and memberships: what a wrongly allowed call would change. */
async function userState(id: number) {
  return {
    row: await db.from('users').where('id', id).first(),
    sessions: await db.from('sessions').where('user_id', id).select('id', 'revoked_at').orderBy('id'),
    apiTokens: await db.from('api_tokens').where('user_id', id).select('id').orderBy('id'),
    roles: await db.from('user_roles').where('user_id', id).select('role_id').orderBy('role_id'),
    areas: await db.from('user_areas').where('user_id', id).select('area_id').orderBy('area_id'),
    audits: await db.from('audit_logs').where('subject_id', String(id)).select('action').orderBy('id'),
  }
}

/** Administrators may act only on users of lower rank (a superuser on other superusers too). */
test.group('user administration against a higher or equal rank', (group) => {
  group.each.setup(resetAuthTables)

  /** The writes of spec 001 §2 on one user, each as its screen sends it. */
  const writes = (client: Client, token: string, id: number, areaId: number) =>
    [
      [
        'update',
        client
          .put(`/inside/users/${id}`)
          .header('token', token)
          .form({ case: 'PUT', first_name: 'Cambiado', email: 'otro@example.test', areas: JSON.stringify([areaId]) }),
      ],
      [
        'password',
        client
          .put(`/inside/users/${id}/password`)
          .header('token', token)
          .form({ case: 'PUT', password: 'Nueva#Clave2027', confirmation: 'Nueva#Clave2027' }),
      ],
      ['2FA reset', client.put(`/inside/users/${id}/two_fa/reset`).header('token', token).form({ case: 'PUT' })],
      ['close sessions', client.put(`/inside/users/${id}/sessions/close`).header('token', token).form({ case: 'PUT' })],
      [
        'API flag',
        client.put(`/inside/users/${id}/api`).header('token', token).form({ case: 'PUT', enabled: 'false' }),
      ],
    ] as const

  /** A user with a session, an API token and two-factor on: each write would undo one of them. */
  async function target(client: Client, username: string, role: string) {
    const user = await makeUser({ username, role, apiEnabled: true })
    const session = await tokenFor(client, username)
    ;(await login(client, username, PASSWORD, { type_login: 'api' })).assertStatus(200)
    await db.from('users').where('id', user.id).update({ two_fa: true })
    return { user, session }
  }

  test('a supervisor cannot update, set the password of, reset 2FA of, sign out or turn off the API of a superuser or another supervisor', async ({
    client,
    assert,
  }) => {
    const area = await Area.firstOrCreate({ name: 'Sur' }, { name: 'Sur', color: '#445566' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const token = await tokenFor(client, 'jefa')
    for (const [username, role] of [
      ['director', 'superuser'],
      ['colega', 'supervisor'],
    ]) {
      const { user, session } = await target(client, username, role)
      const before = await userState(user.id)
      for (const [what, pending] of writes(client, token, user.id, area.id)) {
        const response = await pending
        assert.equal(response.status(), 403, `${what} on ${role}: ${response.text()}`)
        assert.deepEqual(response.body(), FORBIDDEN, `${what} on ${role}`)
      }
      assert.deepEqual(await userState(user.id), before, role)
      ;(await client.get('/inside/session').header('token', session)).assertStatus(200)
      ;(await login(client, username, 'Nueva#Clave2027')).assertStatus(400)
    }
  })

  test('the same writes on a lower rank go through, so the refusals above are about rank', async ({
    client,
    assert,
  }) => {
    const area = await Area.firstOrCreate({ name: 'Sur' }, { name: 'Sur', color: '#445566' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const token = await tokenFor(client, 'jefa')
    const { user, session } = await target(client, 'profe', 'teacher')
    for (const [what, pending] of writes(client, token, user.id, area.id)) {
      const response = await pending
      assert.equal(response.status(), 200, `${what}: ${response.text()}`)
    }
    const after = await db.from('users').where('id', user.id).first()
    assert.include(after, { first_name: 'Cambiado', email: 'otro@example.test' })
    assert.isFalse(Boolean(after.two_fa))
    assert.isFalse(Boolean(after.api_enabled))
    ;(await client.get('/inside/session').header('token', session)).assertStatus(401)
  })
})
