import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { permitConfig, permitProcess, resetProcessTables } from '#tests/helpers/process'
import { publishForm } from '#services/process/forms'
import { taskToken } from '#services/process/engine'
import { seedBase } from '#services/seed_service'
import Area from '#models/area'
import Role from '#models/role'

type Client = Parameters<typeof tokenFor>[0]

/**
 * A decision's comment (issue 18): the process says whether a decision takes none, an optional one or
 * a required one; the engine holds it to that and to its length, keeps it in the decision's log entry,
 * and the consultation shows it, with the path of states the case went through.
 */
test.group('decision comments and the path in the consultation', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    await db.from('rate_limits').delete()
  })

  /** The permit process with Rechazar requiring a comment and an Archivar that takes none. */
  async function publish() {
    await seedBase()
    const area =
      (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
    const supervisor = await Role.findByOrFail('name', 'supervisor')
    const process = permitProcess(area.id, supervisor.id, { enable: true, activity_register: true })
    const approval = process.steps[1] as unknown as { decisions: Record<string, unknown>[] }
    approval.decisions = [
      approval.decisions[0]!,
      { ...approval.decisions[1]!, comment: 'required' },
      { id: 'archivar', label: 'Archivar', color: '#555555', next: { step: null, state: 'end' }, comment: 'none' },
    ]
    const form = await publishForm({ name: 'Solicitud de permiso', jsonconfig: permitConfig(), process, userId: null })
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    return form
  }

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  const pending = (caseId: number) => db.from('tasks').where('case_id', caseId).where('status', 'pending').first()

  /** A case reviewed by the area, now waiting on the supervisor's decision. */
  async function awaitingDecision(client: Client, formKey: string) {
    const started = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: formKey,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 2 }),
    })
    started.assertStatus(200)
    const { id, key_process: key, code_process: code } = started.body().data
    const entered = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: key,
      token: taskToken((await pending(id)).id),
      flow_values: JSON.stringify({ observacion: 'Soportes completos' }),
    })
    entered.assertStatus(200)
    return { id: id as number, key: key as string, code: code as string, approver: await tokenFor(client, 'jefa') }
  }

  async function decide(client: Client, c: { id: number; key: string; approver: string }, fields: object) {
    return post(client, '/data/form/decision/process/info', c.approver, {
      key_process: c.key,
      token: taskToken((await pending(c.id)).id),
      ...(fields as Record<string, string>),
    })
  }

  /** What the public consultation answers for the case: its info and its activity register. */
  async function consulted(client: Client, formKey: string, code: string) {
    const flow = await client
      .post('/inside/forms/validation_flow')
      .form({ case: 'POST', idform: formKey, code_process: code })
    flow.assertStatus(200)
    const ids = { case: 'POST', id_form: formKey, id_flow: flow.body().data.idflow }
    const info = await client.post('/inside/forms/info_formxflow').form(ids)
    info.assertStatus(200)
    const record = await client.post('/data/forms/record_info').form(ids)
    record.assertStatus(200)
    return { info: info.body().data, record: record.body().data as Record<string, unknown>[] }
  }

  test('the approval step tells the runtime each decision’s comment rule', async ({ client, assert }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    const info = await post(client, '/data/form/info/user/token', c.approver, {
      type: 'approve',
      key_process: c.key,
      token: taskToken((await pending(c.id)).id),
    })
    info.assertStatus(200)
    assert.deepEqual(
      info.body().data.decisions.map((d: { id: string; comment: string }) => [d.id, d.comment]),
      [
        ['aprobar', 'optional'],
        ['rechazar', 'required'],
        ['archivar', 'none'],
      ]
    )
  })

  test('a required comment missing (or blank) is refused with a clear message; nothing moves', async ({
    client,
    assert,
  }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    for (const fields of [{ decision: '{"id":"rechazar"}' }, { decision: '{"id":"rechazar"}', comment: '  \n ' }]) {
      const refused = await decide(client, c, fields)
      refused.assertStatus(400)
      assert.include(refused.body(), {
        status: 'fail',
        message: 'La decisión «Rechazar» necesita un comentario: escribe por qué la tomas',
      })
    }
    assert.include(await pending(c.id), { step_id: 'aprobacion' })
    assert.equal((await db.from('cases').where('id', c.id).first()).state, 'revision')
    assert.isNull(await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first())
  })

  test('a comment past 1000 characters is refused; 1000 (counted as characters) is kept', async ({
    client,
    assert,
  }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    const long = await decide(client, c, { decision: '{"id":"rechazar"}', comment: 'á'.repeat(1001) })
    long.assertStatus(400)
    assert.equal(long.body().message, translate('es', 'engine.comment_too_long', { max: 1000 }))
    assert.include(await pending(c.id), { step_id: 'aprobacion' })

    // 1000 accented letters and emoji: code points, not UTF-16 units or bytes, are what is counted.
    const comment = '👍'.repeat(500) + 'é'.repeat(500)
    const kept = await decide(client, c, { decision: '{"id":"rechazar"}', comment })
    kept.assertStatus(200)
    const entry = await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first()
    assert.equal(entry.comment, comment)
  })

  test('a decision that takes no comment refuses one, and so does a fill step', async ({ client, assert }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    const refused = await decide(client, c, { decision: '{"id":"archivar"}', comment: 'Ya no aplica' })
    refused.assertStatus(400)
    assert.equal(refused.body().message, translate('es', 'engine.comment_not_allowed', { decision: 'Archivar' }))
    // An empty one is no comment at all.
    ;(await decide(client, c, { decision: '{"id":"archivar"}', comment: '' })).assertStatus(200)

    const other = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Luis' }),
    })
    const id = other.body().data.id as number
    const fill = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: other.body().data.key_process,
      token: taskToken((await pending(id)).id),
      flow_values: JSON.stringify({ observacion: 'Ok' }),
      comment: 'Revisado',
    })
    fill.assertStatus(400)
    assert.equal(fill.body().message, translate('es', 'engine.comment_not_allowed', { decision: 'Revisión' }))
  })

  test('a rejection’s comment is kept in its log entry and shown in the consultation, with the path taken', async ({
    client,
    assert,
  }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    const rejected = await decide(client, c, {
      decision: '{"id":"rechazar"}',
      comment: '  Falta la incapacidad firmada  ',
    })
    rejected.assertStatus(200)
    const entry = await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first()
    assert.include(entry, { label: 'Rechazar', comment: 'Falta la incapacidad firmada' })

    const { info, record } = await consulted(client, form.key, c.code)
    const shown = record.find((a) => a.event === 'option_selected')!
    assert.include(shown, { label: 'Rechazar', comment: 'Falta la incapacidad firmada' })
    assert.isNull(record.find((a) => a.event === 'started')!.comment)
    // Rechazar sent it back to the review step: the path says so, in order, and it is not over.
    assert.deepEqual(
      info.path.map((s: { id: string }) => s.id),
      ['init', 'revision', 'rechazado', 'revision']
    )
    assert.isFalse(info.ended)
    assert.equal(info.current_state.id, 'revision')
    for (const step of info.path.slice(1)) assert.match(step.date, /^\d{4}-\d{2}-\d{2}T/)
  })

  test('an approved case’s path ends where it ended, with no state it never entered', async ({ client, assert }) => {
    const form = await publish()
    const c = await awaitingDecision(client, form.key)
    ;(await decide(client, c, { decision: '{"id":"aprobar"}', comment: 'De acuerdo' })).assertStatus(200)
    const { info, record } = await consulted(client, form.key, c.code)
    assert.deepEqual(
      info.path.map((s: { id: string; label: string }) => [s.id, s.label]),
      [
        ['init', 'Iniciado'],
        ['revision', 'En revisión'],
        ['aprobado', 'Aprobado'],
      ]
    )
    assert.isTrue(info.ended)
    assert.equal(record.find((a) => a.event === 'option_selected')!.comment, 'De acuerdo')
  })
})
