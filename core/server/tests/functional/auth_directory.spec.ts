import { test } from '@japa/runner'
import { constants, publicEncrypt } from 'node:crypto'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import { escapeDnValue } from '#services/auth/directory'
import { makeUser, resetAuthTables } from '#tests/helpers/auth'
import { LDAP_PEOPLE } from '#tests/helpers/ldap_server'

/** What the browser does for a directory user: RSA-OAEP (SHA-256) with the key validate/ldap gave. */
function encrypt(publicKey: string, password: string): string {
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password)
  ).toString('base64')
}

async function directoryUser(username: string) {
  const user = await makeUser({ username })
  user.authSource = 'ldap'
  user.passwordHash = null
  await user.save()
  return user
}

async function publicKey(client: ApiClient, name: string) {
  const response = await client.post('/inside/users/validate/ldap').form({ case: 'POST', name_user: name })
  response.assertStatus(200)
  return response.body().data
}

test.group('directory (LDAP) sign-in against slapd', (group) => {
  group.each.setup(resetAuthTables)

  test('validate/ldap is truthy only for directory users', async ({ client, assert }) => {
    await directoryUser('lina')
    await makeUser({ username: 'local' })
    const key = await publicKey(client, 'lina')
    assert.match(key.public_key, /^-----BEGIN PUBLIC KEY-----/)
    assert.isFalse(await publicKey(client, 'local'))
    assert.isFalse(await publicKey(client, 'nadie'))
  })

  test('the RSA-encrypted password binds against the directory', async ({ client, assert }) => {
    await directoryUser('lina')
    const key = (await publicKey(client, 'lina')).public_key
    const ok = await client
      .put('/data/login')
      .form({ case: 'PUT', user: 'lina', password: encrypt(key, LDAP_PEOPLE.lina) })
    ok.assertStatus(200)
    assert.isString(ok.body().data.token_new)
    const wrong = await client
      .put('/data/login')
      .form({ case: 'PUT', user: 'lina', password: encrypt(key, 'Otra#Clave2026') })
    wrong.assertStatus(400)
    const garbage = await client.put('/data/login').form({ case: 'PUT', user: 'lina', password: 'bm90LXJzYQ==' })
    garbage.assertStatus(400)
    assert.deepEqual(wrong.body(), garbage.body())
  })

  test('a name with DN specials is escaped, not interpreted', async ({ client }) => {
    await directoryUser('o,brien')
    const key = (await publicKey(client, 'o,brien')).public_key
    ;(
      await client
        .put('/data/login')
        .form({ case: 'PUT', user: 'o,brien', password: encrypt(key, LDAP_PEOPLE['o,brien']) })
    ).assertStatus(200)
  })

  test('directory failures count toward the captcha like any other', async ({ client, assert }) => {
    await directoryUser('lina')
    const key = (await publicKey(client, 'lina')).public_key
    for (let i = 0; i < 3; i++)
      await client.put('/data/login').form({ case: 'PUT', user: 'lina', password: encrypt(key, 'Mala#Clave2026') })
    const fourth = await client
      .put('/data/login')
      .form({ case: 'PUT', user: 'lina', password: encrypt(key, LDAP_PEOPLE.lina) })
    assert.isTrue(fourth.body().captcha_required)
    assert.equal((await User.findByOrFail('username', 'lina')).authSource, 'ldap')
  })

  test('DN escaping (RFC 4514)', ({ assert }) => {
    assert.equal(escapeDnValue('a,b+c"d\\e<f>g;h=i'), 'a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h\\=i')
    assert.equal(escapeDnValue(' #x '), '\\ #x\\ ')
    assert.equal(escapeDnValue('a\u0000b'), 'a\\00b')
  })
})
