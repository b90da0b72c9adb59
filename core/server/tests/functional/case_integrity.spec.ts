import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { publishForm } from '#services/process/forms'
import { taskToken } from '#services/process/engine'
import { latestVersionByKey } from '#services/process/definitions'
import { seedDemo } from '#services/seed_service'
import { fourEyes } from '@tramita/contract'

type Client = Parameters<typeof tokenFor>[0]
type Answer = Awaited<ReturnType<ReturnType<Client['post']>['form']>>

const ROUNDS = 6

/**
 * Issue 17: a case's values are never silently overwritten (two saves at once: both land, or the
 * loser is told "the case changed" and nothing of it is written), and four-eyes approvals.
 */
test.group('case integrity', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  async function start(client: Client, token: string, formKey: string, values: Record<string, unknown>) {
    const started = await post(client, '/data/form/flows/process', token, {
      data: formKey,
      flow_values: JSON.stringify(values),
    })
    started.assertStatus(200)
    return { id: started.body().data.id as number, key: started.body().data.key_process as string }
  }

  const pending = (caseId: number) => db.from('tasks').where('case_id', caseId).where('status', 'pending').first()
  const valuesOf = async (caseId: number) =>
    JSON.parse((await db.from('cases').where('id', caseId).first()).values) as Record<string, unknown>

  /** A refused loser: 409, the reason the runtime reads, and the message that says to reload. */
  function assertCaseChanged(assert: any, answer: Answer) {
    assert.equal(answer.status(), 409)
    assert.equal(answer.body().status, 'fail')
    assert.equal(answer.body().reason, 'case_changed')
    assert.include(answer.body().message, 'Recarga')
  }

  test('two people editing different fields at once: both edits land, or the loser is told', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'jefe', role: 'supervisor' })
    const applicant = await tokenFor(client, 'solicitante')
    const editors = [await tokenFor(client, 'jefa'), await tokenFor(client, 'jefe')]
    let refusals = 0
    for (let round = 0; round < ROUNDS; round++) {
      const { id, key } = await start(client, applicant, form.key, { nombre: 'Ana', dias: 2, motivo: 'Cita' })
      // Odd rounds send what the runtime sends: every value as loaded, and the version loaded with them.
      const runtime = round % 2 === 1
      const loaded = await Promise.all(
        editors.map(async (token) => {
          const info = await post(client, '/data/form/info/user/token', token, { type: 'see', key_process: key })
          info.assertStatus(200)
          return info.body().data as { version: number; values_init: Record<string, unknown> }
        })
      )
      const edits: Record<string, string>[] = [{ nombre: `Ana María ${round}` }, { motivo: `Cita médica ${round}` }]
      const answers = await Promise.all(
        editors.map((token, i) =>
          post(client, '/data/form/flows/process/edit', token, {
            key_process: key,
            flow_values: JSON.stringify(runtime ? { ...loaded[i]!.values_init, ...edits[i] } : edits[i]),
            ...(runtime ? { version: String(loaded[i]!.version) } : {}),
          })
        )
      )
      const stored = await valuesOf(id)
      answers.forEach((answer, i) => {
        if (answer.status() === 200) assert.deepInclude(stored, edits[i]!, `round ${round}: a "done" edit is kept`)
        else {
          assertCaseChanged(assert, answer)
          refusals++
          const [name] = Object.keys(edits[i]!)
          assert.notEqual(stored[name!], edits[i]![name!], `round ${round}: a refused edit writes nothing`)
        }
      })
      assert.isAtLeast(answers.filter((a) => a.status() === 200).length, 1)
      const row = await db.from('cases').where('id', id).first()
      assert.equal(Number(row.version), answers.filter((a) => a.status() === 200).length)
    }
    // Both editors loaded the same version in the runtime rounds: one of each pair must lose.
    assert.isAtLeast(refusals, ROUNDS / 2)
  })

  test('a task completed while someone edits the case: neither is lost', async ({ client, assert }) => {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const applicant = await tokenFor(client, 'solicitante')
    const review = await tokenFor(client, 'revisora')
    const admin = await tokenFor(client, 'jefa')
    const outcomes = new Set<string>()
    for (let round = 0; round < ROUNDS; round++) {
      const { id, key } = await start(client, applicant, form.key, { nombre: 'Ana', dias: 2 })
      const task = await pending(id)
      const [completed, edited] = await Promise.all([
        post(client, '/data/form/asignar/process/info', review, {
          key_process: key,
          token: taskToken(task.id),
          flow_values: JSON.stringify({ observacion: `Revisado ${round}` }),
        }),
        post(client, '/data/form/flows/process/edit', admin, {
          key_process: key,
          flow_values: JSON.stringify({ nombre: `Ana María ${round}` }),
        }),
      ])
      const stored = await valuesOf(id)
      const after = await db.from('tasks').where('id', task.id).first()
      if (completed.status() === 200) {
        assert.equal(stored.observacion, `Revisado ${round}`)
        assert.equal(after.status, 'done')
        assert.include(await pending(id), { step_id: 'aprobacion' })
      } else {
        assertCaseChanged(assert, completed)
        assert.notEqual(stored.observacion, `Revisado ${round}`)
        assert.equal(after.status, 'pending', 'a refused completion leaves its task to be done')
        assert.lengthOf(await db.from('tasks').where('case_id', id), 1)
      }
      if (edited.status() === 200) assert.equal(stored.nombre, `Ana María ${round}`)
      else {
        assertCaseChanged(assert, edited)
        assert.equal(stored.nombre, 'Ana')
      }
      outcomes.add(`${completed.status()}/${edited.status()}`)
    }
    assert.notInclude([...outcomes], '409/409', 'one of the two always lands')
  })

  test('a save based on a version older than the case is refused before anything runs', async ({ client, assert }) => {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const applicant = await tokenFor(client, 'solicitante')
    const admin = await tokenFor(client, 'jefa')
    const { id, key } = await start(client, applicant, form.key, { nombre: 'Ana', dias: 2 })
    const first = await post(client, '/data/form/flows/process/edit', admin, {
      key_process: key,
      version: '0',
      flow_values: JSON.stringify({ nombre: 'Ana María', dias: 2 }),
    })
    first.assertStatus(200)
    const stale = await post(client, '/data/form/flows/process/edit', admin, {
      key_process: key,
      version: '0',
      flow_values: JSON.stringify({ nombre: 'Ana', dias: 5 }),
    })
    assertCaseChanged(assert, stale)
    assert.include(await valuesOf(id), { nombre: 'Ana María', dias: 2 })
    const info = await post(client, '/data/form/info/user/token', admin, { type: 'see', key_process: key })
    assert.equal(info.body().data.version, 1)
    const bad = await post(client, '/data/form/flows/process/edit', admin, {
      key_process: key,
      version: 'uno',
      flow_values: JSON.stringify({ dias: 5 }),
    })
    bad.assertStatus(400)
    assert.equal(bad.body().status, 'fail')
  })

  test('who may edit values in see: the info answer says what the edit route allows', async ({ client, assert }) => {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const applicant = await tokenFor(client, 'solicitante')
    const admin = await tokenFor(client, 'jefa')
    const { key } = await start(client, applicant, form.key, { nombre: 'Ana' })
    for (const [token, allowed] of [
      [applicant, false],
      [admin, true],
    ] as const) {
      const info = await post(client, '/data/form/info/user/token', token, { type: 'see', key_process: key })
      assert.equal(info.body().data.may_edit_values, allowed)
      const saved = await post(client, '/data/form/flows/process/edit', token, {
        key_process: key,
        flow_values: JSON.stringify({ motivo: 'Corrección' }),
      })
      assert.equal(saved.status() === 200, allowed)
    }
  })

  /** The permit process with its approval by the supervisor role; every person below is a supervisor. */
  async function supervisors(client: Client, areaId: number) {
    const starter = await makeUser({ username: 'iniciadora', role: 'supervisor' })
    const reviewer = await makeUser({ username: 'revisor', role: 'supervisor' })
    await reviewer.related('areas').attach([areaId])
    const other = await makeUser({ username: 'otra', role: 'supervisor' })
    return {
      ids: { starter: starter.id, reviewer: reviewer.id, other: other.id },
      starter: await tokenFor(client, 'iniciadora'),
      reviewer: await tokenFor(client, 'revisor'),
      other: await tokenFor(client, 'otra'),
    }
  }

  test('four-eyes: the starter and the previous step’s doer may not approve; someone else may', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit()
    const t = await supervisors(client, form.area.id)
    const { id, key } = await start(client, t.starter, form.key, { nombre: 'Ana', dias: 2 })
    const review = await pending(id)
    const reviewed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: taskToken(review.id),
      flow_values: JSON.stringify({ observacion: 'Completo' }),
    })
    reviewed.assertStatus(200)
    const approval = await pending(id)
    assert.include(approval, { step_id: 'aprobacion', assigned_by: t.ids.reviewer })
    assert.isTrue(Boolean(approval.four_eyes))
    const fields = { key_process: key, token: taskToken(approval.id), decision: JSON.stringify({ id: 'aprobar' }) }

    const opened = await post(client, '/data/form/info/user/token', t.starter, { type: 'approve', ...fields })
    opened.assertStatus(403)
    // The work list leaves the step out for those it bars, and they cannot claim it away from the others.
    for (const [token, listed] of [
      [t.starter, false],
      [t.reviewer, false],
      [t.other, true],
    ] as const) {
      const list = await client.get('/inside/inbox/pending').header('token', token)
      list.assertStatus(200)
      const codes = list.body().data.rows.map((r: { token: string }) => r.token)
      assert.equal(codes.includes(fields.token), listed)
    }
    const claim = await client
      .put('/inside/inbox/claim')
      .header('token', t.starter)
      .form({ case: 'PUT', token: fields.token })
    claim.assertStatus(403)
    for (const [token, says] of [
      [t.starter, 'iniciaste este caso'],
      [t.reviewer, 'paso anterior'],
    ] as const) {
      const refused = await post(client, '/data/form/decision/process/info', token, fields)
      refused.assertStatus(403)
      assert.include(refused.body().message, says)
    }
    assert.include(await db.from('tasks').where('id', approval.id).first(), { status: 'pending' })
    assert.equal((await db.from('cases').where('id', id).first()).status, 'open')

    const info = await post(client, '/data/form/info/user/token', t.other, { type: 'approve', ...fields })
    info.assertStatus(200)
    assert.isTrue(info.body().data.may_edit_values)
    const approved = await post(client, '/data/form/decision/process/info', t.other, fields)
    approved.assertStatus(200)
    assert.include(await db.from('tasks').where('id', approval.id).first(), { status: 'done', done_by: t.ids.other })
  })

  /** start → review by an area → approval by whoever the `aprobador` picker names. */
  async function pickedApproverProcess(areaId: number, fourEyes?: boolean) {
    return publishForm({
      name: 'Compra',
      userId: null,
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['asunto'], ['aprobador']] }] },
        fields: [
          { field_name: 'asunto', type: 'text', data: { label: { value: 'Asunto' } } },
          { field_name: 'aprobador', type: 'users', data: { label: { value: 'Aprobador' } } },
        ],
      },
      process: {
        label: 'Compra',
        states: [
          { id: 'init', label: 'Iniciado' },
          { id: 'end', label: 'Finalizado' },
        ],
        start: { step: 'revision' },
        steps: [
          { id: 'revision', label: 'Revisión', assign: { type: 'area', id: areaId }, next: { step: 'visto' } },
          {
            id: 'visto',
            label: 'Visto bueno',
            kind: 'approve',
            assign: { type: 'field', field: 'aprobador' },
            ...(fourEyes === undefined ? {} : { four_eyes: fourEyes }),
            decisions: [{ id: 'ok', label: 'De acuerdo', next: { step: null } }],
          },
        ],
      },
    })
  }

  test('four-eyes on a picked approver: naming oneself or the reviewer is refused with a reason', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit()
    const t = await supervisors(client, form.area.id)
    const compra = await pickedApproverProcess(form.area.id)
    const self = await post(client, '/data/form/flows/process', t.starter, {
      data: compra.key,
      flow_values: JSON.stringify({ asunto: 'Sillas', aprobador: [{ code: t.ids.starter, label: 'Yo' }] }),
    })
    self.assertStatus(400)
    assert.include(self.body().message, 'Aprobador')
    assert.lengthOf(await db.from('cases').where('form_id', compra.formId), 0)

    const { id, key } = await start(client, t.starter, compra.key, {
      asunto: 'Sillas',
      aprobador: [{ code: t.ids.reviewer, label: 'Revisor' }],
    })
    const review = await pending(id)
    const reviewed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: taskToken(review.id),
      flow_values: '{}',
    })
    reviewed.assertStatus(400)
    assert.include(reviewed.body().message, 'Visto bueno')
    assert.include(await db.from('tasks').where('id', review.id).first(), { status: 'pending' })
    assert.lengthOf(await db.from('tasks').where('case_id', id), 1)
  })

  test('a step with four_eyes off lets its starter approve', async ({ client, assert }) => {
    const form = await publishPermit()
    const t = await supervisors(client, form.area.id)
    const compra = await pickedApproverProcess(form.area.id, false)
    const { id, key } = await start(client, t.starter, compra.key, {
      asunto: 'Sillas',
      aprobador: [{ code: t.ids.starter, label: 'Yo' }],
    })
    const reviewed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: taskToken((await pending(id)).id),
      flow_values: '{}',
    })
    reviewed.assertStatus(200)
    const approved = await post(client, '/data/form/decision/process/info', t.starter, {
      key_process: key,
      token: taskToken((await pending(id)).id),
      decision: JSON.stringify({ id: 'ok' }),
    })
    approved.assertStatus(200)
    assert.isTrue(approved.body().data.ended)
  })

  test('the demo permit: its approval by the named superior is four-eyes', async ({ assert, cleanup }) => {
    const dropAreas = async () => {
      await db.from('user_areas').delete()
      await db.from('areas').delete()
    }
    await dropAreas()
    // The demo's areas would clash with other groups' own.
    cleanup(dropAreas)
    const seeded = await seedDemo()
    assert.isTrue(seeded.created)
    const version = (await latestVersionByKey(seeded.forms![0]!))!
    const approval = version.process.steps.find((s) => s.kind === 'approve')!
    assert.deepEqual(approval.assign, { type: 'field', field: 'jefe_inmediato' })
    assert.isTrue(fourEyes(approval), 'the applicant may not name themselves nor approve')
  })
})
