import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Role from '#models/role'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { resetProcessTables } from '#tests/helpers/process'
import { publishForm } from '#services/process/forms'
import { seedBase } from '#services/seed_service'

/** Pickers of users and roles: the server checks each pick against the database and the reduce lists. */
test.group('people pickers on save', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  async function setup() {
    await seedBase()
    const teacherRole = await Role.findByOrFail('name', 'teacher')
    const supervisorRole = await Role.findByOrFail('name', 'supervisor')
    const published = await publishForm({
      name: 'Asignación',
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['docente', 'rol']] }] },
        fields: [
          { field_name: 'docente', type: 'users', data: { reduce: { roles: [teacherRole.id] } } },
          { field_name: 'rol', type: 'roles', data: { reduce: { roles: [teacherRole.id, supervisorRole.id] } } },
        ],
      },
      process: {
        label: 'Asignación',
        states: [
          { id: 'init', label: 'Iniciado' },
          { id: 'end', label: 'Finalizado' },
        ],
        start: { step: null },
        steps: [],
      },
      userId: null,
    })
    const teacher = await makeUser({ username: 'docente1', role: 'teacher' })
    const student = await makeUser({ username: 'alumno1', role: 'student' })
    await makeUser({ username: 'quien', role: 'supervisor' })
    return { published, teacher, student, teacherRole }
  }

  const save = (client: any, token: string, key: string, values: unknown) =>
    client
      .post('/data/form/flows/process')
      .header('token', token)
      .form({ case: 'POST', data: key, flow_values: JSON.stringify(values) })

  test('an allowed pick is stored as the database has it, whatever label the client sent', async ({
    client,
    assert,
  }) => {
    const { published, teacher, teacherRole } = await setup()
    const token = await tokenFor(client, 'quien')
    const answer = await save(client, token, published.key, {
      docente: [{ code: teacher.id, label: 'Rector (falso)', allData: { areas: [99], rol_user: [1, 2, 3] } }],
      rol: [{ id: teacherRole.id, name: 'admin' }],
    })
    answer.assertStatus(200)
    const stored = JSON.parse((await db.from('cases').firstOrFail()).values)
    assert.deepEqual(stored.docente, [
      { code: teacher.id, label: 'docente1 Test', allData: { areas: [], rol_user: [teacherRole.id] } },
    ])
    assert.deepEqual(stored.rol, [{ id: teacherRole.id, name: 'teacher' }])
  })

  test('a pick outside the reduce lists, or that does not exist, is refused and nothing is stored', async ({
    client,
    assert,
  }) => {
    const { published, student } = await setup()
    const token = await tokenFor(client, 'quien')
    const outside = await save(client, token, published.key, {
      docente: [{ code: student.id, label: 'alumno1 Test', allData: { areas: [], rol_user: [] } }],
    })
    outside.assertStatus(400)
    assert.equal(outside.body().status, 'fail')
    assert.include(outside.body().message, 'no es una opción permitida en el campo docente')

    const unknown = await save(client, token, published.key, { docente: [{ code: 999_999, label: 'Nadie' }] })
    unknown.assertStatus(400)
    assert.include(unknown.body().message, '«Nadie» no existe')

    const studentRole = await Role.findByOrFail('name', 'student')
    const role = await save(client, token, published.key, { rol: [{ id: studentRole.id, name: 'student' }] })
    role.assertStatus(400)
    assert.equal((await db.from('cases')).length, 0)
  })
})
