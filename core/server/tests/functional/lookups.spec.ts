import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

/** A password text: readable by nobody through a lookup. */
const SECRET = { field_name: 'clave', type: 'text', data: { label: { value: 'Clave' }, password: true } }

/** The lookup calls of spec 000 §7: returncolumnsdata and links_modules, over published forms' cases. */
test.group('lookups', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  /** Ana, Beto and Carla started by the applicant, Dora by another student; a reviewer, a supervisor, an outsider. */
  async function setUp(client: Client) {
    const form = await publishPermit({ extraField: SECRET })
    await makeUser({ username: 'solicitante', role: 'student' })
    const other = await makeUser({ username: 'otra', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'ajeno', role: 'teacher' })
    const t = {
      applicant: await tokenFor(client, 'solicitante'),
      other: await tokenFor(client, 'otra'),
      reviewer: await tokenFor(client, 'revisora'),
      admin: await tokenFor(client, 'jefa'),
      outsider: await tokenFor(client, 'ajeno'),
    }
    const start = async (token: string, values: Record<string, unknown>) =>
      (
        await post(client, '/data/form/flows/process', token, { data: form.key, flow_values: JSON.stringify(values) })
      ).assertStatus(200)
    await start(t.applicant, { nombre: 'Ana', dias: 3, clave: 's3creta' })
    await start(t.applicant, { nombre: 'Beto', dias: 12 })
    await start(t.applicant, { nombre: 'Carla', dias: 2 })
    await start(t.other, { nombre: 'Dora', dias: 7 })
    return { form, t, otherId: other.id }
  }

  const columns = (client: Client, token: string, data: unknown) =>
    post(client, '/inside/data_bases/returncolumnsdata', token, {
      data: typeof data === 'string' ? data : JSON.stringify(data),
    })

  test('returncolumnsdata: the requested columns of the cases the caller may see', async ({ client, assert }) => {
    const { form, t, otherId } = await setUp(client)
    const mine = await columns(client, t.applicant, { idDB: form.key, idsColumns: ['nombre', 'dias'] })
    mine.assertStatus(200)
    const rows = mine.body().data as Record<string, string>[]
    assert.deepEqual(
      rows.map((r) => r.nombre),
      ['Carla', 'Beto', 'Ana'],
      'newest first, own cases only'
    )
    assert.sameMembers(Object.keys(rows[0]), ['CODE_PROCESS', 'nombre', 'dias'])
    assert.equal(rows[2].dias, '3')
    assert.match(rows[0].CODE_PROCESS, /^[0-9A-Z]{5}-[0-9A-Z]{5}$/)

    const names = async (token: string, data: Record<string, unknown> = {}) => {
      const res = await columns(client, token, { idDB: form.key, idsColumns: ['nombre'], ...data })
      res.assertStatus(200)
      return (res.body().data as { nombre: string }[]).map((r) => r.nombre)
    }
    // The area's reviewer had a task on every case; a supervisor sees all; an outsider none.
    assert.sameMembers(await names(t.reviewer), ['Ana', 'Beto', 'Carla', 'Dora'])
    assert.sameMembers(await names(t.admin), ['Ana', 'Beto', 'Carla', 'Dora'])
    assert.deepEqual(await names(t.outsider), [])

    assert.deepEqual(await names(t.admin, { search: 'AR' }), ['Carla'])
    assert.deepEqual(await names(t.admin, { search: 'a', order: 'nombre desc', limit: 2 }), ['Dora', 'Carla'])
    assert.deepEqual(await names(t.admin, { order: { column: 'nombre', dir: 'asc' } }), [
      'Ana',
      'Beto',
      'Carla',
      'Dora',
    ])
    assert.deepEqual(await names(t.admin, { order: 'asc', limit: 1 }), ['Ana'])
    const byDays = await columns(client, t.admin, { idDB: form.key, idsColumns: 'nombre,dias', order: 'dias asc' })
    assert.deepEqual(
      (byDays.body().data as { nombre: string }[]).map((r) => r.nombre),
      ['Carla', 'Ana', 'Dora', 'Beto'],
      'numbers order as numbers'
    )
    // access narrows, never widens: users ['*'] changes nothing; ids keep those starters' cases.
    const star = { users: ['*'], areas: [], rols: [] }
    assert.sameMembers(await names(t.applicant, { access: star }), ['Ana', 'Beto', 'Carla'])
    assert.deepEqual(await names(t.outsider, { access: star }), [])
    assert.deepEqual(await names(t.admin, { access: { users: [otherId] } }), ['Dora'])
  })

  test('returncolumnsdata refuses unknown sources and columns, password fields and bad parameters', async ({
    client,
    assert,
  }) => {
    const { form, t } = await setUp(client)
    const cases: [unknown, RegExp][] = [
      [{ idDB: form.key, idsColumns: ['nombre', 'sueldo'] }, /sueldo/],
      [{ idDB: form.key, idsColumns: ['clave'] }, /clave/],
      [{ idDB: 'no-existe', idsColumns: ['nombre'] }, /no-existe/],
      [{ idsColumns: ['nombre'] }, /formulario/],
      [{ idDB: form.key, idsColumns: [] }, /idsColumns/],
      [{ idDB: form.key, idsColumns: [1, 2] }, /idsColumns/],
      [{ idDB: form.key, idsColumns: ['nombre'], limit: 0 }, /limit/],
      [{ idDB: form.key, idsColumns: ['nombre'], limit: 10_000 }, /limit/],
      [{ idDB: form.key, idsColumns: ['nombre'], order: 'dias asc' }, /order/],
      [{ idDB: form.key, idsColumns: ['nombre'], order: 'nombre sideways' }, /order/],
      [{ idDB: form.key, idsColumns: ['nombre'], access: { users: ['x'] } }, /access.users/],
      [{ idDB: form.key, idsColumns: ['nombre'], search: { $ne: 1 } }, /search/],
      ['{"idDB": ', /data/],
      [[1, 2], /data/],
    ]
    for (const [data, text] of cases) {
      const res = await columns(client, t.admin, data)
      assert.equal(res.status(), 400, JSON.stringify(data))
      assert.equal(res.body().status, 'fail')
      assert.match(res.body().message, text)
    }
    const missing = await post(client, '/inside/data_bases/returncolumnsdata', t.admin, {})
    missing.assertStatus(400)
    missing.assertBody({ status: 'fail', message: translate('es', 'auth.field_required', { field: 'data' }) })
    const anonymous = await client
      .post('/inside/data_bases/returncolumnsdata')
      .form({ case: 'POST', data: JSON.stringify({ idDB: form.key, idsColumns: ['nombre'] }) })
    anonymous.assertStatus(401)
    assert.deepEqual(anonymous.body(), { status: 'fail', message: 'Unauthorized' })
  })

  test('injection-looking input is only ever data', async ({ client, assert }) => {
    const { form, t } = await setUp(client)
    const before = Number((await db.from('cases').count('* as n').first()).n)
    const attempts: [unknown, string, Record<string, string>][] = [
      [
        { idDB: `${form.key}' OR '1'='1`, idsColumns: ['nombre'] },
        'lookup.unknown_source',
        { value: `${form.key}' OR '1'='1` },
      ],
      [
        { idDB: form.key, idsColumns: ['nombre; DROP TABLE cases; --'] },
        'lookup.unknown_column',
        { field: 'nombre; DROP TABLE cases; --' },
      ],
      [
        { idDB: form.key, idsColumns: ['nombre'], order: 'nombre; DROP TABLE cases' },
        'lookup.bad_param',
        { field: 'order' },
      ],
      [
        { idDB: form.key, idsColumns: ['nombre'], order: { column: '(select 1)', dir: 'asc' } },
        'lookup.bad_param',
        { field: 'order' },
      ],
    ]
    for (const [data, key, vars] of attempts) {
      const res = await columns(client, t.admin, data)
      assert.equal(res.status(), 400, JSON.stringify(data))
      assert.deepEqual(res.body(), { status: 'fail', message: translate('es', key, vars) })
    }
    for (const search of ["' OR 1=1 --", '%', '_', '"); DROP TABLE cases; --']) {
      const res = await columns(client, t.applicant, { idDB: form.key, idsColumns: ['nombre'], search })
      res.assertStatus(200)
      assert.deepEqual(res.body().data, [], search)
    }
    const where = await post(client, '/inside/forms/links_modules', t.admin, {
      type: 'select_forms',
      id_form: form.key,
      fields_select: '["nombre"]',
      jsonwhere: JSON.stringify({ nombre: "x' OR '1'='1" }),
    })
    where.assertStatus(200)
    assert.deepEqual(where.body().data, [])
    const badKey = await post(client, '/inside/forms/links_modules', t.admin, {
      type: 'select_forms',
      id_form: form.key,
      fields_select: '["nombre"]',
      jsonwhere: JSON.stringify({ "nombre' OR 1=1 --": 'x' }),
    })
    badKey.assertStatus(400)
    badKey.assertBody({
      status: 'fail',
      message: translate('es', 'lookup.unknown_column', { field: "nombre' OR 1=1 --" }),
    })
    assert.equal(Number((await db.from('cases').count('* as n').first()).n), before)
  })

  test('links_modules select_forms: fields of the cases matching jsonwhere; indexing waits for documents', async ({
    client,
    assert,
  }) => {
    const { form, t } = await setUp(client)
    const links = (token: string, fields: Record<string, string>) =>
      post(client, '/inside/forms/links_modules', token, { type: 'select_forms', id_form: form.key, ...fields })

    const all = await links(t.admin, { fields_select: JSON.stringify(['nombre', 'dias']) })
    all.assertStatus(200)
    assert.lengthOf(all.body().data, 4)
    assert.sameMembers(Object.keys(all.body().data[0]), ['CODE_PROCESS', 'nombre', 'dias'])

    const beto = await links(t.admin, { fields_select: 'nombre,dias', jsonwhere: JSON.stringify({ nombre: 'Beto' }) })
    assert.deepEqual(
      beto.body().data.map((r: { nombre: string; dias: string }) => [r.nombre, r.dias]),
      [['Beto', '12']]
    )
    const bySeven = await links(t.admin, { fields_select: '["nombre"]', jsonwhere: JSON.stringify({ dias: 7 }) })
    assert.deepEqual(
      bySeven.body().data.map((r: { nombre: string }) => r.nombre),
      ['Dora']
    )
    const limited = await links(t.admin, { fields_select: '["nombre"]', limit: '2' })
    assert.lengthOf(limited.body().data, 2)
    // Only what the caller may see.
    const own = await links(t.applicant, { fields_select: '["nombre"]', jsonwhere: JSON.stringify({ nombre: 'Dora' }) })
    assert.deepEqual(own.body().data, [])

    const refusals: [Record<string, string>, RegExp][] = [
      [{ fields_select: '["sueldo"]' }, /sueldo/],
      [{ fields_select: '["clave"]' }, /clave/],
      [{ fields_select: '["nombre"]', jsonwhere: '{"sueldo": 1}' }, /sueldo/],
      [{ fields_select: '["nombre"]', jsonwhere: '{"nombre": {"$gt": ""}}' }, /jsonwhere/],
      [{ fields_select: '["nombre"]', jsonwhere: '[1]' }, /jsonwhere/],
      [{ fields_select: '["nombre"]', limit: '501' }, /limit/],
      [{}, /fields_select/],
    ]
    for (const [fields, text] of refusals) {
      const res = await links(t.admin, fields)
      assert.equal(res.status(), 400, JSON.stringify(fields))
      assert.match(res.body().message, text)
    }
    const noForm = await post(client, '/inside/forms/links_modules', t.admin, {
      type: 'select_forms',
      fields_select: '["nombre"]',
    })
    noForm.assertStatus(400)
    assert.match(noForm.body().message, /id_form/)

    // A type a plugin declared (the test plugin's; the documents plugin's select_indexing has its own tests).
    const answered = await post(client, '/inside/forms/links_modules', t.admin, {
      type: 'select_testkit',
      wanted: 'x',
    })
    answered.assertStatus(200)
    assert.deepEqual(answered.body(), {
      status: 'done',
      data: [
        { user: (await db.from('users').where('username', 'jefa').firstOrFail()).id, wanted: 'x', language: 'es' },
      ],
    })
    const refused = await post(client, '/inside/forms/links_modules', t.admin, { type: 'select_testkit', refuse: 'no' })
    refused.assertStatus(409)
    assert.equal(refused.body().status, 'fail')
    const unknown = await post(client, '/inside/forms/links_modules', t.admin, { type: 'select_everything' })
    unknown.assertStatus(400)
    assert.match(unknown.body().message, /select_everything/)
  })
})
