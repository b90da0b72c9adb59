import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import AuditLog from '#models/audit_log'
import Area from '#models/area'
import Role from '#models/role'
import { PASSWORD, login, makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

/** A refusal as the client reads it: status 'fail' and the message in the default language. */
const refusal = (key: string, vars?: Record<string, unknown>) => ({
  status: 'fail',
  message: translate('es', key, vars),
})

test.group('user administration', (group) => {
  group.each.setup(resetAuthTables)

  async function admin(client: Parameters<typeof tokenFor>[0], role = 'superuser') {
    const user = await makeUser({ username: `boss-${role}`, role })
    return { user, token: await tokenFor(client, user.username) }
  }

  test('selectors: areas, roles and all users in the spec shapes', async ({ client, assert }) => {
    const { token } = await admin(client)
    const area = await Area.create({ name: 'Norte', color: '#112233' })
    const student = await makeUser({ username: 'alumno', role: 'student' })
    await student.related('areas').attach([area.id])
    const areas = await client.get('/data/areas').header('token', token)
    assert.deepEqual(areas.body().data[area.id], { id: area.id, color: '#112233', name: 'Norte' })
    const roles = await client.get('/data/users/roles').header('token', token)
    const studentRole = await Role.findByOrFail('name', 'student')
    assert.deepEqual(roles.body().data[studentRole.id], { id: studentRole.id, name: 'student' })
    const all = await client.get('/data/allusers').header('token', token)
    const row = all.body().data.users.find((u: { id: number }) => u.id === student.id)
    assert.deepEqual(row, {
      id: student.id,
      first_name: 'alumno',
      last_name: 'Test',
      photo: null,
      areas: [area.id],
      rol_user: [studentRole.id],
    })
  })

  test('list with search and pagination; profile; tree', async ({ client, assert }) => {
    const { token } = await admin(client)
    const parent = await makeUser({ username: 'jefa', role: 'teacher' })
    for (let i = 1; i <= 12; i++) {
      const u = await makeUser({ username: `persona${String(i).padStart(2, '0')}`, role: 'student' })
      if (i <= 2) {
        u.parentId = parent.id
        await u.save()
      }
    }
    const page2 = await client
      .get('/inside/users')
      .header('token', token)
      .qs({ search: 'persona', page: 2, per_page: 10 })
    assert.equal(page2.body().data.total, 12)
    assert.lengthOf(page2.body().data.users, 2)
    const profile = await client.get(`/inside/users/${parent.id}`).header('token', token)
    assert.equal(profile.body().data.username, 'jefa')
    assert.deepEqual(
      profile.body().data.roles.map((r: { name: string }) => r.name),
      ['teacher']
    )
    assert.notProperty(profile.body().data, 'password_hash')
    const tree = await client.get('/inside/users/tree').header('token', token)
    const node = tree.body().data.find((n: { id: number }) => n.id === parent.id)
    assert.lengthOf(node.children, 2)
  })

  test('create and edit a user with areas and roles', async ({ client, assert }) => {
    const { token } = await admin(client)
    const area = await Area.create({ name: 'Sur', color: '#445566' })
    const teacher = await Role.findByOrFail('name', 'teacher')
    const created = await client
      .post('/inside/users')
      .header('token', token)
      .form({
        case: 'POST',
        username: 'nuevo',
        first_name: 'Nuevo',
        last_name: 'Usuario',
        email: 'nuevo@example.test',
        password: 'Nueva#Clave2027',
        areas: JSON.stringify([area.id]),
        roles: JSON.stringify([teacher.id]),
        stratum: '3',
        birth_date: '2001-02-03',
      })
    created.assertStatus(200)
    const id = created.body().data.id
    assert.deepEqual(created.body().data.areas, [area.id])
    assert.equal(created.body().data.birth_date, '2001-02-03')
    ;(await login(client, 'nuevo', 'Nueva#Clave2027')).assertStatus(200)
    const edited = await client
      .put(`/inside/users/${id}`)
      .header('token', token)
      .form({ case: 'PUT', profession: 'Docente', areas: '[]' })
    edited.assertStatus(200)
    assert.equal(edited.body().data.profession, 'Docente')
    assert.deepEqual(edited.body().data.areas, [])
    const bad = await client
      .post('/inside/users')
      .header('token', token)
      .form({ case: 'POST', username: 'x y', first_name: '' })
    bad.assertStatus(422)
    assert.equal(bad.body().status, 'fail')
    const weak = await client
      .post('/inside/users')
      .header('token', token)
      .form({ case: 'POST', username: 'debil', first_name: 'D', password: 'Password1!' })
    weak.assertStatus(400)
    assert.include(weak.body(), refusal('auth.password_rules'))
    assert.isNull(await db.from('users').where('username', 'debil').first())
  })

  test('an edit clears optional fields with empty values; a superior loop is refused', async ({ client, assert }) => {
    const { token } = await admin(client)
    const jefa = await makeUser({ username: 'jefa', role: 'teacher' })
    const alumno = await makeUser({ username: 'alumno', role: 'student' })
    const set = await client
      .put(`/inside/users/${alumno.id}`)
      .header('token', token)
      .form({
        case: 'PUT',
        email: 'alumno@example.test',
        mobile: '3001234567',
        stratum: '2',
        birth_date: '2010-05-06',
        parent_id: String(jefa.id),
      })
    set.assertStatus(200)
    assert.include(set.body().data, { email: 'alumno@example.test', stratum: 2, parent_id: jefa.id })
    const cleared = await client
      .put(`/inside/users/${alumno.id}`)
      .header('token', token)
      .form({ case: 'PUT', email: '', mobile: ' ', stratum: '', birth_date: '', parent_id: '' })
    cleared.assertStatus(200)
    assert.include(cleared.body().data, { email: null, mobile: null, stratum: null, birth_date: null, parent_id: null })
    assert.equal(cleared.body().data.first_name, 'alumno', 'fields not sent are left alone')

    // jefa → alumno → jefa would be a loop; so would being one's own superior.
    await client
      .put(`/inside/users/${alumno.id}`)
      .header('token', token)
      .form({ case: 'PUT', parent_id: String(jefa.id) })
    const loop = await client
      .put(`/inside/users/${jefa.id}`)
      .header('token', token)
      .form({ case: 'PUT', parent_id: String(alumno.id) })
    loop.assertStatus(400)
    assert.deepEqual(loop.body(), refusal('auth.field_invalid', { field: 'parent_id' }))
    const self = await client
      .put(`/inside/users/${jefa.id}`)
      .header('token', token)
      .form({ case: 'PUT', parent_id: String(jefa.id) })
    self.assertStatus(400)
    assert.deepEqual(self.body(), loop.body())
    await jefa.refresh()
    assert.isNull(jefa.parentId)
  })

  test("blocking ends the user's sessions and sign-in; unblocking lets them back", async ({ client, assert }) => {
    const { token } = await admin(client)
    const target = await makeUser({ username: 'bloqueado', role: 'student' })
    const session = await tokenFor(client, 'bloqueado')
    ;(
      await client.put(`/inside/users/${target.id}/block`).header('token', token).form({ case: 'PUT', blocked: 'true' })
    ).assertStatus(200)
    ;(await client.get('/inside/session').header('token', session)).assertStatus(401)
    const refused = await login(client, 'bloqueado')
    refused.assertStatus(403)
    assert.include(refused.body(), refusal('auth.user_blocked'))
    assert.isEmpty(await db.from('sessions').where('user_id', target.id).whereNull('revoked_at'))
    ;(
      await client
        .put(`/inside/users/${target.id}/block`)
        .header('token', token)
        .form({ case: 'PUT', blocked: 'false' })
    ).assertStatus(200)
    ;(await login(client, 'bloqueado')).assertStatus(200)
  })

  test("an administrator sets a password; the user's sessions end", async ({ client }) => {
    const { token } = await admin(client)
    const target = await makeUser({ username: 'olvidadizo', role: 'student' })
    const session = await tokenFor(client, 'olvidadizo')
    const r = await client
      .put(`/inside/users/${target.id}/password`)
      .header('token', token)
      .form({ case: 'PUT', password: 'Puesta#Clave2027', confirmation: 'Puesta#Clave2027' })
    r.assertStatus(200)
    ;(await client.get('/inside/session').header('token', session)).assertStatus(401)
    ;(await login(client, 'olvidadizo', 'Puesta#Clave2027')).assertStatus(200)
  })

  test("API flag off: the user's existing API token gets 401 at once", async ({ client, assert }) => {
    const { token } = await admin(client)
    const target = await makeUser({ username: 'robot', role: 'teacher', apiEnabled: true })
    const apiLogin = await login(client, 'robot', PASSWORD, { type_login: 'api' })
    const apiToken = apiLogin.body().data.token_new as string
    assert.isTrue(apiToken.startsWith('tra_'))
    ;(await client.get('/inside/session').header('token', apiToken)).assertStatus(200)
    const off = await client
      .put(`/inside/users/${target.id}/api`)
      .header('token', token)
      .form({ case: 'PUT', enabled: 'false' })
    assert.equal(off.body().data.revoked_tokens, 1)
    ;(await client.get('/inside/session').header('token', apiToken)).assertStatus(401)
    ;(await login(client, 'robot', PASSWORD, { type_login: 'api' })).assertStatus(403)
  })

  test('close sessions takes effect at once', async ({ client, assert }) => {
    const { token } = await admin(client)
    const target = await makeUser({ username: 'viajero', role: 'student' })
    const a = await tokenFor(client, 'viajero')
    const b = await tokenFor(client, 'viajero')
    const r = await client.put(`/inside/users/${target.id}/sessions/close`).header('token', token).form({ case: 'PUT' })
    assert.equal(r.body().data.closed, 2)
    ;(await client.get('/inside/session').header('token', a)).assertStatus(401)
    ;(await client.get('/inside/session').header('token', b)).assertStatus(401)
  })

  test('impersonation: audited with both ids and the reason, shown in the session, ended on request', async ({
    client,
    assert,
  }) => {
    const { user: boss, token } = await admin(client, 'supervisor')
    const target = await makeUser({ username: 'suplantado', role: 'student' })
    const r = await client
      .post(`/inside/users/${target.id}/impersonate`)
      .header('token', token)
      .form({ case: 'POST', reason: 'Soporte: no ve su formulario' })
    r.assertStatus(200)
    const asUser = r.body().data.token_new
    const session = await client.get('/inside/session').header('token', asUser)
    assert.equal(session.body().data.username, 'suplantado')
    assert.deepEqual(session.body().data.impersonator, { id: boss.id, username: boss.username })
    const entry = await AuditLog.query().where('action', 'impersonate.start').firstOrFail()
    assert.equal(entry.actorId, boss.id)
    assert.equal(entry.subjectId, String(target.id))
    assert.equal(entry.data!.reason, 'Soporte: no ve su formulario')
    ;(
      await client.delete('/inside/session/impersonation').header('token', asUser).form({ case: 'DELETE' })
    ).assertStatus(200)
    ;(await client.get('/inside/session').header('token', asUser)).assertStatus(401)
    ;(await client.get('/inside/session').header('token', token)).assertStatus(200)
  })

  test('impersonating an equal or higher role is refused and audited', async ({ client, assert }) => {
    const { token } = await admin(client, 'supervisor')
    const superuser = await makeUser({ username: 'jefe', role: 'superuser' })
    const peer = await makeUser({ username: 'colega', role: 'supervisor' })
    for (const target of [superuser, peer]) {
      const r = await client
        .post(`/inside/users/${target.id}/impersonate`)
        .header('token', token)
        .form({ case: 'POST', reason: 'curiosidad' })
      r.assertStatus(403)
      assert.deepEqual(r.body(), refusal('auth.impersonate_refused'))
      assert.isEmpty(await db.from('sessions').where('user_id', target.id))
    }
    assert.equal((await AuditLog.query().where('action', 'impersonate.refused')).length, 2)
    const blocked = await client
      .put(`/inside/users/${superuser.id}/block`)
      .header('token', token)
      .form({ case: 'PUT', blocked: 'true' })
    blocked.assertStatus(403)
    assert.deepEqual(blocked.body(), refusal('auth.forbidden'))
    await superuser.refresh()
    assert.isFalse(superuser.blocked)
  })

  test('areas and roles management; system roles are protected', async ({ client, assert }) => {
    const { token } = await admin(client)
    const area = await client
      .post('/inside/areas')
      .header('token', token)
      .form({ case: 'POST', name: 'Biblioteca', color: '#00AA00' })
    area.assertStatus(200)
    const id = area.body().data.id
    ;(
      await client.put(`/inside/areas/${id}`).header('token', token).form({ case: 'PUT', name: 'Biblioteca central' })
    ).assertStatus(200)
    ;(
      await client.post('/inside/areas').header('token', token).form({ case: 'POST', name: 'Biblioteca central' })
    ).assertStatus(400)
    ;(await client.delete(`/inside/areas/${id}`).header('token', token).form({ case: 'DELETE' })).assertStatus(200)
    const role = await client.post('/inside/roles').header('token', token).form({ case: 'POST', name: 'auditor' })
    role.assertStatus(200)
    ;(
      await client.delete(`/inside/roles/${role.body().data.id}`).header('token', token).form({ case: 'DELETE' })
    ).assertStatus(200)
    const student = await Role.findByOrFail('name', 'student')
    const system = await client.delete(`/inside/roles/${student.id}`).header('token', token).form({ case: 'DELETE' })
    system.assertStatus(403)
    assert.deepEqual(system.body(), refusal('auth.core_role'))
    assert.isNotNull(await Role.find(student.id))
  })

  test('teachers and students cannot administer', async ({ client, assert }) => {
    for (const role of ['teacher', 'student']) {
      const user = await makeUser({ username: `sin-${role}`, role })
      const token = await tokenFor(client, user.username)
      const list = await client.get('/inside/users').header('token', token)
      list.assertStatus(403)
      assert.deepEqual(list.body(), refusal('auth.forbidden'))
      const area = await client.post('/inside/areas').header('token', token).form({ case: 'POST', name: 'X' })
      area.assertStatus(403)
      assert.deepEqual(area.body(), refusal('auth.forbidden'))
      assert.isNull(await Area.findBy('name', 'X'))
      ;(await client.get('/data/allusers').header('token', token)).assertStatus(200)
    }
  })

  test('a supervisor cannot hand out the superuser role', async ({ client, assert }) => {
    const { token } = await admin(client, 'supervisor')
    const superRole = await Role.findByOrFail('name', 'superuser')
    const r = await client
      .post('/inside/users')
      .header('token', token)
      .form({ case: 'POST', username: 'ascenso', first_name: 'A', roles: JSON.stringify([superRole.id]) })
    r.assertStatus(403)
    assert.deepEqual(r.body(), refusal('auth.forbidden'))
    assert.isNull(await db.from('users').where('username', 'ascenso').first())
  })
})
