import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

type Client = Parameters<typeof tokenFor>[0]

const refusal = (key: string) => ({ status: 'fail', message: translate('es', key) })

/** The token rows as stored, to see that a refused call changed none. */
const tokenRows = () => db.from('api_tokens').select('id', 'user_id', 'name', 'token_hash').orderBy('id')

/** A signed-in user's own API tokens: GET, POST, DELETE /inside/users/me/api_tokens. */
test.group('own API tokens', (group) => {
  group.each.setup(resetAuthTables)

  const list = (client: Client, token: string) => client.get('/inside/users/me/api_tokens').header('token', token)
  const create = (client: Client, token: string, name = 'integración') =>
    client.post('/inside/users/me/api_tokens').header('token', token).form({ case: 'POST', name })
  const remove = (client: Client, token: string, id: number) =>
    client.delete(`/inside/users/me/api_tokens/${id}`).header('token', token).form({ case: 'DELETE' })

  test('a user allowed the API lists, creates (shown once) and deletes their tokens', async ({ client, assert }) => {
    await makeUser({ username: 'robot', role: 'teacher', apiEnabled: true })
    const session = await tokenFor(client, 'robot')
    const created = await create(client, session)
    created.assertStatus(200)
    const { id, token, name } = created.body().data
    assert.equal(name, 'integración')
    assert.match(token, /^tra_/)
    ;(await client.get('/inside/session').header('token', token)).assertStatus(200)
    const listed = await list(client, session)
    assert.deepEqual(
      listed.body().data.map((t: { id: number; name: string }) => [t.id, t.name]),
      [[id, 'integración']]
    )
    assert.notInclude(listed.text(), token)
    const deleted = await remove(client, session, id)
    deleted.assertStatus(200)
    assert.deepEqual(deleted.body().data, { deleted: 1 })
    ;(await client.get('/inside/session').header('token', token)).assertStatus(401)
    assert.deepEqual(await tokenRows(), [])
  })

  test('without API use a token is refused and none is stored', async ({ client, assert }) => {
    await makeUser({ username: 'sinapi', role: 'teacher' })
    const session = await tokenFor(client, 'sinapi')
    const refused = await create(client, session)
    refused.assertStatus(403)
    assert.deepEqual(refused.body(), refusal('auth.api_disabled'))
    assert.deepEqual(await tokenRows(), [])
  })

  test("an impersonating administrator can neither list, create nor delete the user's tokens", async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const user = await makeUser({ username: 'robot', role: 'student', apiEnabled: true })
    const own = await create(client, await tokenFor(client, 'robot'))
    own.assertStatus(200)
    const before = await tokenRows()
    const started = await client
      .post(`/inside/users/${user.id}/impersonate`)
      .header('token', await tokenFor(client, 'jefa'))
      .form({ case: 'POST', reason: 'Soporte' })
    started.assertStatus(200)
    const asUser = started.body().data.token_new as string
    for (const response of [
      await list(client, asUser),
      await create(client, asUser),
      await remove(client, asUser, own.body().data.id),
    ]) {
      response.assertStatus(403)
      assert.deepEqual(response.body(), refusal('auth.tokens_while_impersonating'))
    }
    assert.deepEqual(await tokenRows(), before)
    ;(await client.get('/inside/session').header('token', own.body().data.token)).assertStatus(200)
  })

  test("deleting someone else's token is refused like a missing one, and the token keeps working", async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'dueno', role: 'teacher', apiEnabled: true })
    await makeUser({ username: 'otro', role: 'supervisor', apiEnabled: true })
    const owners = await create(client, await tokenFor(client, 'dueno'))
    const before = await tokenRows()
    const other = await tokenFor(client, 'otro')
    const theirs = await remove(client, other, owners.body().data.id)
    const missing = await remove(client, other, owners.body().data.id + 1000)
    theirs.assertStatus(404)
    assert.deepEqual(theirs.body(), refusal('auth.api_token_not_found'))
    assert.deepEqual(missing.body(), theirs.body())
    assert.deepEqual(await tokenRows(), before)
    ;(await client.get('/inside/session').header('token', owners.body().data.token)).assertStatus(200)
  })
})
