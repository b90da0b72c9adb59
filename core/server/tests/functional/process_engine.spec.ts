import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { permitConfig, permitProcess, publishPermit, resetProcessTables } from '#tests/helpers/process'
import { waitForMail } from '#tests/helpers/smtp_listener'
import { waitUntil } from '#tests/helpers/wait'
import { publishForm } from '#services/process/forms'

type Client = Parameters<typeof tokenFor>[0]

/** The process engine through the spec's routes: start, enter, approve, consult what the case holds. */
test.group('process engine', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  /** The applicant, a reviewer in the area, a supervisor and an outsider, each signed in. */
  async function people(client: Client, areaId: number) {
    await makeUser({ username: 'solicitante', role: 'student' })
    const revisor = await makeUser({ username: 'revisora', role: 'teacher' })
    await revisor.related('areas').attach([areaId])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'ajeno', role: 'teacher' })
    return {
      applicant: await tokenFor(client, 'solicitante'),
      reviewer: await tokenFor(client, 'revisora'),
      approver: await tokenFor(client, 'jefa'),
      outsider: await tokenFor(client, 'ajeno'),
    }
  }

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  /** A new case of the form, started by `token`'s user. */
  async function startCase(client: Client, token: string, formKey: string, values: Record<string, unknown>) {
    const started = await post(client, '/data/form/flows/process', token, {
      data: formKey,
      flow_values: JSON.stringify(values),
    })
    started.assertStatus(200)
    return { id: started.body().data.id as number, key: started.body().data.key_process as string }
  }

  async function pendingTask(caseId: number) {
    return db.from('tasks').where('case_id', caseId).where('status', 'pending').first()
  }

  async function tokenOfPending(caseId: number) {
    const { taskToken } = await import('#services/process/engine')
    return taskToken((await pendingTask(caseId)).id)
  }

  test('a case walks from new through enter and approve to its end', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)

    const info = await post(client, '/data/form/info/user/token', t.applicant, { type: 'new', data: form.key })
    info.assertStatus(200)
    assert.equal(info.body().data.status_task, 'pending')
    assert.equal(info.body().data.estados_label, 'iniciado')
    assert.equal(info.body().data.infouser[0].username, 'solicitante')
    assert.deepEqual(info.body().data.jsonconfig, permitConfig())

    const started = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' }),
    })
    started.assertStatus(200)
    const { id, code_process: code, key_process: key } = started.body().data
    assert.match(code, /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/)
    assert.equal(started.body().data.state, 'revision')
    const task1 = await pendingTask(id)
    assert.include(task1, { step_id: 'revision', assignee_type: 'area', assignee_id: form.area.id, kind: 'fill' })

    // The reviewer is told by mail, with a link that opens the task.
    const mail = await waitForMail('revisora@example.test', (m) => m.text.includes(code))
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0])
    assert.equal(link.pathname, '/forms/enter')
    assert.equal(link.searchParams.get('key_process'), key)
    // The sending is logged on the case (spec 000 §3 activity type email), once the mail has left.
    const emailed = () => db.from('activities').where('case_id', id).where('type', 'email').first()
    await waitUntil(async () => Boolean(await emailed()), 5_000, 'the email activity')
    assert.include(await emailed(), { task_id: task1.id, event: 'email_sent', type_asignador: 'area' })

    const enterInfo = await post(client, '/data/form/info/user/token', t.reviewer, {
      type: 'enter',
      data: form.key,
      key_process: key,
      token: link.searchParams.get('token')!,
    })
    enterInfo.assertStatus(200)
    assert.equal(enterInfo.body().data.status_task, 'pending')
    assert.equal(enterInfo.body().data.fields_values.nombre.value, 'Ana Ruiz')
    assert.equal(enterInfo.body().data.fields_values.dias.value_replace, '3')
    assert.equal(enterInfo.body().data.estados_label, 'en revisión')
    const vars = JSON.parse(enterInfo.body().data.values_params)
    assert.include(vars, { code_process: code, gnrl_id: id, id_process: form.formId, this_id: task1.id })

    const entered = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      data: form.key,
      key_process: key,
      token: link.searchParams.get('token')!,
      // observacion is shown only on this step (show_on_task), so the applicant could not fill it.
      flow_values: JSON.stringify({ observacion: 'Soportes completos' }),
    })
    entered.assertStatus(200)
    const task2 = await pendingTask(id)
    assert.include(task2, { step_id: 'aprobacion', kind: 'approve', assignee_type: 'rol' })

    const approveToken = await tokenOfPending(id)
    const approveInfo = await post(client, '/data/form/info/user/token', t.approver, {
      type: 'approve',
      data: form.key,
      key_process: key,
      token: approveToken,
    })
    assert.deepEqual(
      approveInfo.body().data.decisions.map((d: { label: string }) => d.label),
      ['Aprobar', 'Rechazar']
    )
    const decided = await post(client, '/data/form/decision/process/info', t.approver, {
      data: form.key,
      key_process: key,
      token: approveToken,
      decision: JSON.stringify({ id: 'aprobar' }),
    })
    decided.assertStatus(200)
    assert.isTrue(decided.body().data.ended)

    const row = await db.from('cases').where('id', id).first()
    assert.equal(row.state, 'aprobado')
    assert.equal(row.status, 'ended')
    assert.deepInclude(JSON.parse(row.values), { nombre: 'Ana Ruiz', dias: 3, observacion: 'Soportes completos' })
    const log = await db.from('activities').where('case_id', id).orderBy('id')
    assert.deepEqual(
      log.filter((a) => a.type !== 'email').map((a) => `${a.type}:${a.event}:${a.label}`),
      [
        'start:started:Solicitud de permiso',
        'state:state_changed:En revisión',
        'assign:assigned:Revisión',
        'assign:performed:Revisión',
        'approve:approval_requested:Aprobación',
        'approve:option_selected:Aprobar',
        'state:state_changed:Aprobado',
        'end:finished:Solicitud de permiso',
      ]
    )
    assert.equal(log.find((a) => a.event === 'assigned').type_asignador, 'area')
    assert.equal(log.find((a) => a.event === 'option_selected').color, '#00aa55')

    // Done is done: the same save again is refused with tarea_realizada, and info says so.
    const again = await post(client, '/data/form/decision/process/info', t.approver, {
      data: form.key,
      key_process: key,
      token: approveToken,
      decision: JSON.stringify({ id: 'aprobar' }),
    })
    again.assertStatus(409)
    assert.equal(again.body().message, 'Esta tarea ya fue realizada')
    const doneInfo = await post(client, '/data/form/info/user/token', t.approver, {
      type: 'approve',
      key_process: key,
      token: approveToken,
    })
    assert.equal(doneInfo.body().data.status_task, 'done')
  })

  test('rechazar sends the case back to review in the rechazado state', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Luis' })
    await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: await tokenOfPending(id),
      flow_values: JSON.stringify({ observacion: 'Ok' }),
    })
    const back = await post(client, '/data/form/decision/process/info', t.approver, {
      key_process: key,
      token: await tokenOfPending(id),
      decision: JSON.stringify({ label: 'Rechazar' }),
    })
    back.assertStatus(200)
    assert.equal(back.body().data.state, 'revision', 'rechazado, then the review step enters its own state')
    assert.include(await pendingTask(id), { step_id: 'revision' })
    const states = await db.from('activities').where('case_id', id).where('type', 'state').orderBy('id')
    assert.deepEqual(
      states.map((s) => s.label),
      ['En revisión', 'Rechazado', 'En revisión']
    )
  })

  test('only the assignee completes a step; nothing changes for anyone else', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Eva' })
    const token = await tokenOfPending(id)
    const caseRow = () => db.from('cases').where('id', id).first()
    const before = { row: await caseRow(), tasks: await db.from('tasks').where('case_id', id).orderBy('id') }
    for (const who of [t.outsider, t.applicant, t.approver]) {
      const refused = await post(client, '/data/form/asignar/process/info', who, {
        key_process: key,
        token,
        flow_values: JSON.stringify({ nombre: 'Eva', observacion: 'Intruso' }),
      })
      refused.assertStatus(403)
      assert.deepEqual(refused.body(), { status: 'fail', message: translate('es', 'engine.not_yours') })
    }
    const anonymous = await client
      .post('/data/form/asignar/process/info')
      .form({ case: 'POST', key_process: key, token, flow_values: JSON.stringify({ observacion: 'Intruso' }) })
    anonymous.assertStatus(401)
    assert.deepEqual(anonymous.body(), { status: 'fail', message: 'Unauthorized' })
    assert.deepEqual({ row: await caseRow(), tasks: await db.from('tasks').where('case_id', id).orderBy('id') }, before)
    assert.equal(JSON.parse((await caseRow()).values).observacion, '')
  })

  test('bad payloads are a clear fail and store nothing', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    // The assignee mail's activity is written by its job whenever that runs: no refused call's doing.
    const counts = async () => ({
      cases: Number((await db.from('cases').count('* as n').first()).n),
      activities: Number((await db.from('activities').whereNot('type', 'email').count('* as n').first()).n),
      tasks: Number((await db.from('tasks').count('* as n').first()).n),
    })
    const before = await counts()
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ data: form.key, flow_values: '{"nombre": ' }, 400, /JSON/],
      [{ data: form.key, flow_values: '[1,2]' }, 400, /JSON/],
      [{ data: form.key, flow_values: JSON.stringify({ nombre: 'A', hacker: 1 }) }, 400, /hacker/],
      [{ data: form.key, flow_values: JSON.stringify({ nombre: 'A', dias: 'muchos' }) }, 400, /dias/],
      [{ data: form.key, flow_values: JSON.stringify({ dias: 2 }) }, 400, /obligatorios/],
      [{ data: form.key, flow_values: JSON.stringify({ nombre: 'A' }), go_to_state: 'end' }, 400, /estado/],
      [{ data: 'no-existe', flow_values: JSON.stringify({ nombre: 'A' }) }, 404, /no existe/],
      [{ flow_values: JSON.stringify({ nombre: 'A' }) }, 400, /data/],
    ]
    for (const [fields, status, text] of cases) {
      const res = await post(client, '/data/form/flows/process', t.applicant, fields)
      assert.equal(res.status(), status, JSON.stringify(fields))
      assert.equal(res.body().status, 'fail')
      assert.match(res.body().message, text)
    }
    const missing = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ dias: 2 }),
    })
    assert.deepEqual(missing.body().missing, ['nombre'])

    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Ok' })
    const token = await tokenOfPending(id)
    const afterStart = await counts()
    const taskCases: [string, Record<string, string>, number][] = [
      ['/data/form/decision/process/info', { key_process: key, token, decision: '{"id":"aprobar"}' }, 400],
      [
        '/data/form/asignar/process/info',
        { key_process: `${id}.AAAAAAAAAAAAAAAAAAAAAA`, token, flow_values: '{}' },
        404,
      ],
      ['/data/form/asignar/process/info', { key_process: key, token: `${token}x`, flow_values: '{}' }, 404],
      [
        '/data/form/asignar/process/info',
        { key_process: key, token, flow_values: '{"observacion":"x"}', go_to_state: 'aprobado' },
        400,
      ],
      ['/data/form/asignar/process/info', { key_process: key, token, flow_values: '{}' }, 400],
    ]
    for (const [path, fields, status] of taskCases) {
      const res = await post(client, path, t.reviewer, fields)
      assert.equal(res.status(), status, `${path} ${JSON.stringify(fields)}`)
      assert.equal(res.body().status, 'fail')
    }
    assert.deepEqual(await counts(), afterStart)
    assert.equal(afterStart.cases, before.cases + 1)
  })

  test('go_to_state moves the case to a state the step allows', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Ok' })
    const res = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: await tokenOfPending(id),
      flow_values: JSON.stringify({ observacion: 'Falta soporte' }),
      go_to_state: 'rechazado',
    })
    res.assertStatus(200)
    const labels = (await db.from('activities').where('case_id', id).where('type', 'state').orderBy('id')).map(
      (s) => s.label
    )
    assert.deepEqual(labels, ['En revisión', 'Rechazado'])
  })

  test('a running case keeps its version when a new one is published', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Ok' })
    const v2config = permitConfig({ field_name: 'anexo', type: 'text', data: { label: { value: 'Anexo' } } })
    const v2 = await publishForm({
      formId: form.formId,
      name: 'Solicitud de permiso',
      jsonconfig: v2config,
      process: permitProcess(form.area.id, form.supervisor.id),
      userId: null,
    })
    assert.equal(v2.version, 2)
    const info = await post(client, '/data/form/info/user/token', t.reviewer, {
      type: 'enter',
      key_process: key,
      token: await tokenOfPending(id),
    })
    assert.deepEqual(info.body().data.form, { id: form.formId, name: 'Solicitud de permiso', version: 1 })
    const fresh = await post(client, '/data/form/info/user/token', t.applicant, { type: 'new', data: form.key })
    assert.equal(fresh.body().data.form.version, 2)
    assert.deepEqual(fresh.body().data.jsonconfig, v2config)
  })

  test('two saves of one task at once: one wins, the other is told it is done', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Ok' })
    const token = await tokenOfPending(id)
    const both = await Promise.all(
      [1, 2].map((n) =>
        post(client, '/data/form/asignar/process/info', t.reviewer, {
          key_process: key,
          token,
          flow_values: JSON.stringify({ observacion: `intento ${n}` }),
        })
      )
    )
    assert.sameMembers(
      both.map((r) => r.status()),
      [200, 409]
    )
    assert.lengthOf(await db.from('tasks').where('case_id', id).where('step_id', 'aprobacion'), 1)
  })

  test('assignees named by a field: a user (approve_parameter) and an outsider acting by the link', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'solicitante', role: 'student' })
    const jefe = await makeUser({ username: 'jefe', role: 'teacher' })
    const applicant = await tokenFor(client, 'solicitante')
    const boss = await tokenFor(client, 'jefe')
    const published = await publishForm({
      name: 'Visto bueno',
      userId: null,
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['asunto'], ['aprobador', 'correo_externo']] }] },
        fields: [
          { field_name: 'asunto', type: 'text', data: { label: { value: 'Asunto' }, validate: { required: true } } },
          { field_name: 'aprobador', type: 'users', data: { label: { value: 'Aprobador' } } },
          { field_name: 'correo_externo', type: 'email', data: { label: { value: 'Correo del proveedor' } } },
        ],
      },
      process: {
        label: 'Visto bueno',
        color: '#1C1066',
        states: [
          { id: 'init', label: 'Iniciado' },
          { id: 'end', label: 'Finalizado' },
        ],
        start: { step: 'visto_bueno' },
        steps: [
          {
            id: 'visto_bueno',
            label: 'Visto bueno',
            kind: 'approve',
            assign: { type: 'field', field: 'aprobador' },
            decisions: [{ id: 'ok', label: 'De acuerdo', color: '#00aa55', next: { step: 'proveedor' } }],
          },
          {
            id: 'proveedor',
            label: 'Confirmación del proveedor',
            kind: 'fill',
            assign: { type: 'field', field: 'correo_externo' },
            next: { step: null },
          },
        ],
      },
    })
    const started = await post(client, '/data/form/flows/process', applicant, {
      data: published.key,
      flow_values: JSON.stringify({
        asunto: 'Compra',
        aprobador: [{ code: jefe.id, label: 'Jefe' }],
        correo_externo: 'Prov@Example.test',
      }),
    })
    started.assertStatus(200)
    const { id, key_process: key } = started.body().data
    assert.include(await pendingTask(id), { assignee_type: 'user', assignee_id: jefe.id })
    const approved = await post(client, '/data/form/decision/process/info', boss, {
      key_process: key,
      token: await tokenOfPending(id),
      decision: JSON.stringify({ id: 'ok' }),
    })
    approved.assertStatus(200)
    assert.include(await pendingTask(id), { assignee_type: 'external', assignee_email: 'prov@example.test' })

    // The outsider has no account: the mailed link is the credential.
    const mail = await waitForMail('prov@example.test', (m) => m.text.includes('/forms/enter'))
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0])
    const done = await client.post('/data/form/asignar/process/info').form({
      case: 'POST',
      key_process: link.searchParams.get('key_process')!,
      token: link.searchParams.get('token')!,
      flow_values: '{}',
    })
    done.assertStatus(200)
    assert.isTrue(done.body().data.ended)
    const log = await db.from('activities').where('case_id', id).whereNot('type', 'email').orderBy('id')
    assert.deepEqual(
      log.map((a) => `${a.type}:${a.event}:${a.type_asignador ?? ''}`),
      [
        'start:started:',
        'approve_parameter:approval_requested:user',
        'approve:option_selected:user',
        'assign_parameter:assigned:external',
        'assign:performed:external',
        'state:state_changed:',
        'end:finished:',
      ]
    )
  })

  test('editing values: administrators and user 1 may, the applicant may not', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await people(client, form.area.id)
    const { id, key } = await startCase(client, t.applicant, form.key, { nombre: 'Original', dias: 2 })
    const refused = await post(client, '/data/form/flows/process/edit', t.applicant, {
      key_process: key,
      flow_values: JSON.stringify({ nombre: 'Cambiado' }),
    })
    refused.assertStatus(403)
    const edited = await post(client, '/data/form/flows/process/edit', t.approver, {
      key_process: key,
      flow_values: JSON.stringify({ nombre: 'Corregido' }),
    })
    edited.assertStatus(200)
    const row = await db.from('cases').where('id', id).first()
    assert.include(JSON.parse(row.values), { nombre: 'Corregido', dias: 2 })
    assert.equal(row.state, 'revision', 'an edit does not move the process')
    const bad = await post(client, '/data/form/flows/process/edit', t.approver, {
      key_process: key,
      flow_values: JSON.stringify({ dias: 'tres' }),
    })
    bad.assertStatus(400)
    assert.equal(JSON.parse((await db.from('cases').where('id', id).first()).values).dias, 2)
  })
})
