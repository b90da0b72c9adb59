import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { taskToken } from '#services/process/engine'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

/** A companion's name per day of leave: a set over `dias`, filled by the applicant only. */
const COMPANION = {
  field_name: 'acompanante',
  type: 'text',
  isSet: true,
  set: 'dias',
  show_on_task: ['start'],
  data: { label: { value: 'Acompañante' }, ref: { limit: 12 } },
}

/** Set fields through the save routes: each repetition stored under name[id], checked like its field. */
test.group('set fields in saves', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  function post(client: Client, path: string, token: string, fields: Record<string, string>) {
    let request = client.post(path).header('token', token)
    for (const [name, value] of Object.entries({ case: 'POST', ...fields })) request = request.field(name, value)
    return request
  }

  const caseValues = async (id: number) =>
    JSON.parse((await db.from('cases').where('id', id).firstOrFail()).values) as Record<string, unknown>

  test('repetitions are stored by id, stale ones dropped, bad ones refused with their key', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit({ extraField: COMPANION })
    await makeUser({ username: 'solicitante', role: 'student' })
    const applicant = await tokenFor(client, 'solicitante')
    const start = (values: Record<string, unknown>) =>
      post(client, '/data/form/flows/process', applicant, { data: form.key, flow_values: JSON.stringify(values) })

    const tooLong = await start({ nombre: 'Ana', dias: 2, 'acompanante[1]': 'Un nombre demasiado largo' })
    tooLong.assertStatus(400)
    assert.deepEqual(tooLong.body().errors, [
      { field: 'acompanante[1]', message: 'El texto supera el límite de 12 caracteres' },
    ])
    const noSet = await start({ nombre: 'Ana', dias: 2, 'nombre[1]': 'x' })
    noSet.assertStatus(400)
    assert.deepEqual(
      noSet.body().errors.map((e: { field: string }) => e.field),
      ['nombre[1]']
    )
    assert.lengthOf(await db.from('cases'), 0)

    const started = await start({
      nombre: 'Ana',
      dias: 2,
      acompanante: 'ignored',
      'acompanante[1]': 'Eva',
      'acompanante[2]': 'Leo',
      'acompanante[3]': 'Sobra',
    })
    started.assertStatus(200)
    const values = await caseValues(started.body().data.id)
    assert.deepInclude(values, { acompanante: '', 'acompanante[1]': 'Eva', 'acompanante[2]': 'Leo' })
    assert.notProperty(values, 'acompanante[3]')
  })

  test('a repetition follows its field on each step: the reviewer cannot change what only the applicant fills', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit({ extraField: COMPANION })
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const started = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana', dias: 1, 'acompanante[1]': 'Eva' }),
    })
    started.assertStatus(200)
    const { id, key_process: key } = started.body().data as { id: number; key_process: string }
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').firstOrFail()
    const entered = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: key,
      token: taskToken(task.id),
      flow_values: JSON.stringify({ observacion: 'Ok', 'acompanante[1]': 'Intrusa' }),
    })
    entered.assertStatus(200)
    assert.deepInclude(await caseValues(id), { observacion: 'Ok', 'acompanante[1]': 'Eva' })
  })

  test('the public consultation shows one row per repetition, captioned, instead of the blank set field', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit({ extraField: { ...COMPANION, idset: 'Día' } })
    await makeUser({ username: 'solicitante', role: 'student' })
    const started = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana', dias: 2, 'acompanante[1]': 'Eva', 'acompanante[2]': 'Leo' }),
    })
    started.assertStatus(200)
    const flow = await client
      .post('/inside/forms/validation_flow')
      .form({ case: 'POST', idform: form.key, code_process: started.body().data.code_process })
    flow.assertStatus(200)
    const info = await client
      .post('/inside/forms/info_formxflow')
      .form({ case: 'POST', id_form: form.key, id_flow: flow.body().data.idflow })
    info.assertStatus(200)
    const { jsonconfig, fields_values: values } = info.body().data
    const rows = jsonconfig.fields.map((f: { field_name: string; data: { label: { value: string } } }) => [
      f.field_name,
      f.data.label.value,
    ])
    assert.deepInclude(rows, ['acompanante[1]', 'Acompañante (Día 1)'])
    assert.deepInclude(rows, ['acompanante[2]', 'Acompañante (Día 2)'])
    assert.notInclude(
      rows.map((r: string[]) => r[0]),
      'acompanante'
    )
    assert.equal(values['acompanante[2]'].value_replace, 'Leo')
  })
})
