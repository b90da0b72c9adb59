import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

/** Public consultation of a case by its code: the four calls, the verification value and the limits. */
test.group('public consultation', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    await db.from('rate_limits').delete()
  })

  const documento = {
    field_name: 'documento',
    type: 'text',
    data: { label: { value: 'Documento' }, validate: { required: true } },
  }

  async function startedCase(client: Client, consult: Record<string, unknown>) {
    const form = await publishPermit({ extraField: documento, consult })
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    const res = await client
      .post('/data/form/flows/process')
      .header('token', token)
      .form({
        case: 'POST',
        data: form.key,
        flow_values: JSON.stringify({ nombre: 'Ana', dias: 2, motivo: 'Viaje', documento: '1020304050' }),
      })
    res.assertStatus(200)
    // The done screen links the new case to its consultation only when the process allows it.
    res.assertBodyContains({ data: { external_consultation: consult.enable === true, id_form: form.key } })
    return { form, code: res.body().data.code_process as string }
  }

  const consult = (client: Client, path: string, fields: Record<string, string>) =>
    client.post(path).form({ case: 'POST', ...fields })

  test('code and verification value open the case: states, current state, shown fields, register', async ({
    client,
    assert,
  }) => {
    const { form, code } = await startedCase(client, {
      enable: true,
      select_restrinct_consult: 'documento',
      label_restrinct_consult: 'Número de documento',
      select_show_info: ['nombre', 'dias'],
      activity_register: true,
    })
    const basic = await consult(client, '/inside/forms/info_basicform', { data: form.key })
    basic.assertStatus(200)
    assert.equal(basic.body().data.label, 'Solicitud de permiso')
    assert.deepInclude(basic.body().data.external_consultation, {
      select_restrinct_consult: true,
      label_restrinct_consult: 'Número de documento',
    })
    assert.deepEqual(
      basic.body().data.estados.map((s: { id: string }) => s.id),
      ['init', 'revision', 'aprobado', 'rechazado', 'end']
    )

    // Typed loosely: lower case, no hyphen.
    const typed = code.toLowerCase().replace('-', ' ')
    const flow = await consult(client, '/inside/forms/validation_flow', {
      idform: form.key,
      code_process: typed,
      dynamic: '1020304050',
    })
    flow.assertStatus(200)
    const idflow = flow.body().data.idflow
    const info = await consult(client, '/inside/forms/info_formxflow', { id_form: form.key, id_flow: idflow })
    info.assertStatus(200)
    const data = info.body().data
    assert.deepEqual(data.current_state, { id: 'revision', label: 'En revisión', color: '#f0a000' })
    assert.sameMembers(Object.keys(data.fields_values), ['nombre', 'dias', 'CODE_PROCESS', 'ID_PROCESS'])
    assert.equal(data.fields_values.CODE_PROCESS, code)
    assert.deepEqual(
      data.jsonconfig.fields.map((f: { field_name: string }) => f.field_name),
      ['nombre', 'dias']
    )
    assert.notInclude(JSON.stringify(data), '1020304050', 'the verification value is not shown back')
    assert.isString(data.last_update)

    const record = await consult(client, '/data/forms/record_info', { id_form: form.key, id_flow: idflow })
    assert.deepEqual(
      record
        .body()
        .data.map((a: { event: string }) => a.event)
        .slice(0, 3),
      ['started', 'state_changed', 'assigned']
    )
    assert.equal(record.body().data[2].type_asignador, 'area')
  })

  test('a wrong value, an unknown code and a disabled consultation get the same answer', async ({ client, assert }) => {
    const { form, code } = await startedCase(client, { enable: true, select_restrinct_consult: 'documento' })
    const answers = []
    for (const fields of [
      { idform: form.key, code_process: code, dynamic: '999' },
      { idform: form.key, code_process: code, dynamic: '' },
      { idform: form.key, code_process: 'ZZZZZ-ZZZZZ', dynamic: '1020304050' },
      { idform: 'otra', code_process: code, dynamic: '1020304050' },
      { idform: form.key, code_process: 'no es un código', dynamic: '1020304050' },
    ]) {
      const res = await consult(client, '/inside/forms/validation_flow', fields)
      answers.push({ status: res.status(), body: res.body() })
    }
    for (const answer of answers) assert.deepEqual(answer, answers[0])
    assert.equal(answers[0].status, 404)
    assert.equal(answers[0].body.message, 'No se encontró el proceso o los datos de consulta son incorrectos')

    // A forged or foreign idflow opens nothing.
    const forged = await consult(client, '/inside/forms/info_formxflow', {
      id_form: form.key,
      id_flow: '1.AAAAAAAAAAAAAAAAAAAAAA',
    })
    forged.assertStatus(404)
    assert.deepEqual(forged.body(), answers[0].body)
  })

  test('a form without external view says so', async ({ client, assert }) => {
    const { form, code } = await startedCase(client, { enable: false })
    const basic = await consult(client, '/inside/forms/info_basicform', { data: form.key })
    basic.assertStatus(403)
    assert.equal(basic.body().message, 'Este formulario no tiene vista externa')
    const flow = await consult(client, '/inside/forms/validation_flow', { idform: form.key, code_process: code })
    flow.assertStatus(404)
    assert.equal(flow.body().message, 'No se encontró el proceso o los datos de consulta son incorrectos')
  })

  test('lookups are limited per code: after 10 failures even the right value waits', async ({ client, assert }) => {
    const { form, code } = await startedCase(client, { enable: true, select_restrinct_consult: 'documento' })
    for (let i = 0; i < 10; i++) {
      const res = await consult(client, '/inside/forms/validation_flow', {
        idform: form.key,
        code_process: code,
        dynamic: `mal${i}`,
      })
      assert.equal(res.status(), 404)
    }
    const right = await consult(client, '/inside/forms/validation_flow', {
      idform: form.key,
      code_process: code,
      dynamic: '1020304050',
    })
    right.assertStatus(429)
    assert.deepEqual(right.body(), { status: 'fail', message: translate('es', 'auth.too_many_requests') })
    assert.isAbove(Number(right.header('retry-after')), 0)
  })

  test('lookups are limited per address', async ({ client, assert }) => {
    const { form } = await startedCase(client, { enable: true })
    const statuses = []
    for (let i = 0; i < 21; i++) {
      const res = await consult(client, '/inside/forms/validation_flow', {
        idform: form.key,
        code_process: `AAAAA-AAAA${i % 10}`,
      })
      statuses.push(res.status())
    }
    assert.equal(statuses.at(-1), 429)
    assert.notInclude(statuses.slice(0, 20), 429)
  })
})
