import { test } from '@japa/runner'
import type { ApiResponse } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import Area from '#models/area'
import Role from '#models/role'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { permitConfig, publishPermit, resetProcessTables } from '#tests/helpers/process'
import { publishForm } from '#services/process/forms'
import { versionById } from '#services/process/definitions'
import { completeTask, EngineRefusal, taskToken, type CaseRow, type TaskRow } from '#services/process/engine'

type Client = Parameters<typeof tokenFor>[0]

/** A refusal: its status and exactly the message the caller reads, nothing else in the body. */
function assertRefused(response: ApiResponse, status: number, key: string) {
  response.assertStatus(status)
  response.assertBody({ status: 'fail', message: translate('es', key) })
}

/** A one-step process whose step goes to `assign`; starters as given (none: anyone). */
function oneStep(label: string, assign: Record<string, unknown>, starters: Record<string, number[]> = {}) {
  return {
    label,
    states: [
      { id: 'init', label: 'Iniciado', color: '#7f82ff' },
      { id: 'tramite', label: 'En trámite', color: '#f0a000' },
      { id: 'end', label: 'Finalizado', color: '#1C1066' },
    ],
    starters,
    start: { step: 'tramite' },
    steps: [{ id: 'tramite', label: 'Trámite', kind: 'fill', assign, state: 'tramite', notify: false }],
  }
}

async function publishOneStep(name: string, assign: Record<string, unknown>, starters = {}) {
  return publishForm({ name, jsonconfig: permitConfig(), process: oneStep(name, assign, starters), userId: null })
}

/** The inbox routes: pending steps, claiming, started cases, processes to start, filters, summary. */
test.group('inbox', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  /** Applicant, two reviewers of the area, a supervisor (approver role), an outsider, a direct assignee. */
  async function people(client: Client, areaId: number) {
    const applicant = await makeUser({ username: 'solicitante', role: 'student' })
    const r1 = await makeUser({ username: 'revisora', role: 'teacher' })
    const r2 = await makeUser({ username: 'revisor', role: 'teacher' })
    await r1.related('areas').attach([areaId])
    await r2.related('areas').attach([areaId])
    const boss = await makeUser({ username: 'jefa', role: 'supervisor' })
    const outsider = await makeUser({ username: 'ajeno', role: 'teacher' })
    const direct = await makeUser({ username: 'directo', role: 'student' })
    return {
      ids: { applicant: applicant.id, r1: r1.id, r2: r2.id, boss: boss.id, outsider: outsider.id, direct: direct.id },
      applicant: await tokenFor(client, 'solicitante'),
      r1: await tokenFor(client, 'revisora'),
      r2: await tokenFor(client, 'revisor'),
      boss: await tokenFor(client, 'jefa'),
      outsider: await tokenFor(client, 'ajeno'),
      direct: await tokenFor(client, 'directo'),
    }
  }

  const get = (client: Client, path: string, token: string, qs: Record<string, string | number> = {}) =>
    client.get(path).header('token', token).qs(qs)
  const put = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .put(path)
      .header('token', token)
      .form({ case: 'PUT', ...fields })
  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  async function start(client: Client, token: string, formKey: string, nombre: string) {
    const res = await post(client, '/data/form/flows/process', token, {
      data: formKey,
      flow_values: JSON.stringify({ nombre }),
    })
    res.assertStatus(200)
    return {
      id: res.body().data.id as number,
      key: res.body().data.key_process as string,
      code: res.body().data.code_process as string,
    }
  }

  async function pendingTask(caseId: number): Promise<TaskRow> {
    return db.from('tasks').where('case_id', caseId).where('status', 'pending').first()
  }

  async function pendingOf(client: Client, token: string, qs: Record<string, string | number> = {}) {
    const res = await get(client, '/inside/inbox/pending', token, qs)
    res.assertStatus(200)
    return res.body().data as { rows: any[]; total: number; page: number; per_page: number }
  }

  test('pending steps: direct, role and area tasks, each to the right people only', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const direct = await publishOneStep('Trámite directo', { type: 'user', id: t.ids.direct })

    const a = await start(client, t.applicant, permit.key, 'Ana')
    const b = await start(client, t.applicant, direct.key, 'Beto')
    const c = await start(client, t.applicant, permit.key, 'Carla')
    // Case c moves on to the approval step, assigned to the supervisor role.
    await post(client, '/data/form/asignar/process/info', t.r1, {
      key_process: c.key,
      token: taskToken((await pendingTask(c.id)).id),
      flow_values: JSON.stringify({ observacion: 'Bien' }),
    }).then((r) => r.assertStatus(200))

    const r1 = await pendingOf(client, t.r1)
    assert.deepEqual(
      r1.rows.map((r) => r.code),
      [a.code]
    )
    const row = r1.rows[0]
    const task = await pendingTask(a.id)
    assert.include(row, {
      code: a.code,
      key_process: a.key,
      token: taskToken(task.id),
      process: 'Solicitud de permiso',
      form_key: permit.key,
      step_id: 'revision',
      step: 'Revisión',
      kind: 'fill',
      assignee_type: 'area',
      assignee: 'Talento humano',
      claimable: true,
      claimed_by: null,
    })
    assert.deepEqual(row.state, { id: 'revision', label: 'En revisión', color: '#f0a000' })
    const link = new URL(row.link, 'http://x')
    assert.equal(link.pathname, '/forms/enter')
    assert.equal(link.searchParams.get('key_process'), a.key)
    assert.equal(link.searchParams.get('token'), taskToken(task.id))
    assert.isString(row.assigned_at)
    assert.isString(row.started_at)
    // The link opens the task for the reviewer.
    const opened = await post(client, '/data/form/info/user/token', t.r1, {
      type: 'enter',
      key_process: link.searchParams.get('key_process')!,
      token: link.searchParams.get('token')!,
    })
    opened.assertStatus(200)
    assert.equal(opened.body().data.status_task, 'pending')

    assert.deepEqual(
      (await pendingOf(client, t.r2)).rows.map((r) => r.code),
      [a.code]
    )
    const boss = await pendingOf(client, t.boss)
    assert.deepEqual(
      boss.rows.map((r) => [r.code, r.kind, r.assignee_type]),
      [[c.code, 'approve', 'rol']]
    )
    assert.equal(new URL(boss.rows[0].link, 'http://x').pathname, '/forms/approve')
    const directRows = (await pendingOf(client, t.direct)).rows
    assert.deepEqual(
      directRows.map((r) => [r.code, r.assignee_type, r.claimable]),
      [[b.code, 'user', false]]
    )
    assert.equal((await pendingOf(client, t.outsider)).total, 0)
    assert.equal((await pendingOf(client, t.applicant)).total, 0)

    assertRefused(await client.get('/inside/inbox/pending'), 401, 'error.unauthorized')
  })

  test('claim: one member takes the step, the other no longer sees or saves it; release gives it back', async ({
    client,
    assert,
  }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const a = await start(client, t.applicant, permit.key, 'Ana')
    const token = taskToken((await pendingTask(a.id)).id)

    // Two members claim at once: exactly one wins.
    const [first, second] = await Promise.all([
      put(client, '/inside/inbox/claim', t.r1, { token }),
      put(client, '/inside/inbox/claim', t.r2, { token }),
    ])
    assert.sameMembers([first.status(), second.status()], [200, 409])
    const [winner, loser] = first.status() === 200 ? [t.r1, t.r2] : [t.r2, t.r1]
    const winnerId = first.status() === 200 ? t.ids.r1 : t.ids.r2
    const won = first.status() === 200 ? first : second
    const lost = first.status() === 200 ? second : first
    assert.equal(lost.body().status, 'fail')
    assert.equal(lost.body().message, 'Otro miembro ya tomó este paso')
    assert.equal(won.body().data.task.claimed_by.id, winnerId)
    assert.isString(won.body().data.task.claimed_at)
    assert.equal((await pendingTask(a.id)).claimed_by, winnerId)

    // Claiming again is harmless for the holder; the other member neither sees, claims nor saves it.
    ;(await put(client, '/inside/inbox/claim', winner, { token })).assertStatus(200)
    assert.equal((await pendingOf(client, winner)).rows[0].claimed_by.id, winnerId)
    assert.equal((await pendingOf(client, loser)).total, 0)
    assertRefused(await put(client, '/inside/inbox/claim', loser, { token }), 409, 'inbox.claimed_by_other')
    assertRefused(await put(client, '/inside/inbox/release', loser, { token }), 409, 'inbox.claimed_by_other')
    const refused = await post(client, '/data/form/asignar/process/info', loser, {
      key_process: a.key,
      token,
      flow_values: JSON.stringify({ nombre: 'Ana', observacion: 'No es mío' }),
    })
    assertRefused(refused, 403, 'engine.not_yours')
    assert.include(await pendingTask(a.id), { status: 'pending', claimed_by: winnerId })
    assert.equal(JSON.parse((await db.from('cases').where('id', a.id).first()).values).observacion, '')

    // Not a member, not a role or area step, not a task at all.
    assertRefused(await put(client, '/inside/inbox/claim', t.outsider, { token }), 403, 'engine.not_yours')
    assert.equal((await pendingTask(a.id)).claimed_by, winnerId)
    const direct = await publishOneStep('Trámite directo', { type: 'user', id: t.ids.direct })
    const b = await start(client, t.applicant, direct.key, 'Beto')
    const notClaimable = await put(client, '/inside/inbox/claim', t.direct, {
      token: taskToken((await pendingTask(b.id)).id),
    })
    assertRefused(notClaimable, 400, 'inbox.not_claimable')
    assert.isNull((await pendingTask(b.id)).claimed_by)
    const forged = `${(await pendingTask(a.id)).id}.forged`
    assertRefused(await put(client, '/inside/inbox/claim', winner, { token: forged }), 404, 'engine.not_found')
    assertRefused(await put(client, '/inside/inbox/claim', winner, {}), 404, 'engine.not_found')

    // The holder releases: both members see it again, and the other one takes and does it.
    const released = await put(client, '/inside/inbox/release', winner, { token })
    released.assertStatus(200)
    assert.isNull(released.body().data.task.claimed_by)
    assertRefused(await put(client, '/inside/inbox/release', winner, { token }), 409, 'inbox.not_claimed')
    assert.equal((await pendingOf(client, loser)).total, 1)
    ;(await put(client, '/inside/inbox/claim', loser, { token })).assertStatus(200)
    const late = await post(client, '/data/form/asignar/process/info', winner, {
      key_process: a.key,
      token,
      flow_values: JSON.stringify({ nombre: 'Ana', observacion: 'Tarde' }),
    })
    assertRefused(late, 403, 'engine.not_yours')
    assert.equal(JSON.parse((await db.from('cases').where('id', a.id).first()).values).observacion, '')
    const saved = await post(client, '/data/form/asignar/process/info', loser, {
      key_process: a.key,
      token,
      flow_values: JSON.stringify({ observacion: 'Hecho' }),
    })
    saved.assertStatus(200)
    assertRefused(await put(client, '/inside/inbox/claim', loser, { token }), 409, 'tarea_realizada')
  })

  test('a save racing a claim: the engine refuses a task claimed since it was read', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const a = await start(client, t.applicant, permit.key, 'Ana')
    const stale = await pendingTask(a.id)
    const row = (await db.from('cases').where('id', a.id).first()) as CaseRow
    // r2 claims after r1's save read the task (the controller's check passed on the stale row).
    ;(await put(client, '/inside/inbox/claim', t.r2, { token: taskToken(stale.id) })).assertStatus(200)
    const version = (await versionById(row.form_version_id))!
    try {
      await completeTask(version, row, stale, t.ids.r1, { values: { observacion: 'Carrera' } })
      assert.fail('the save should have been refused')
    } catch (error) {
      assert.instanceOf(error, EngineRefusal)
      assert.equal((error as EngineRefusal).key, 'inbox.claimed_by_other')
    }
    const task = await pendingTask(a.id)
    assert.equal(task.claimed_by, t.ids.r2)
    assert.equal(JSON.parse((await db.from('cases').where('id', a.id).first()).values).observacion, '')
  })

  test('an administrator may release a step someone else holds (audited)', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const a = await start(client, t.applicant, permit.key, 'Ana')
    const token = taskToken((await pendingTask(a.id)).id)
    ;(await put(client, '/inside/inbox/claim', t.r1, { token })).assertStatus(200)
    // A supervisor outside the area may not take it, but may give it back.
    assertRefused(await put(client, '/inside/inbox/claim', t.boss, { token }), 403, 'engine.not_yours')
    assert.equal((await pendingTask(a.id)).claimed_by, t.ids.r1)
    ;(await put(client, '/inside/inbox/release', t.boss, { token })).assertStatus(200)
    assert.isNull((await pendingTask(a.id)).claimed_by)
    const entry = await db.from('audit_logs').where('action', 'task.release_other').first()
    assert.equal(entry.actor_id, t.ids.boss)
    assertRefused(await put(client, '/inside/inbox/release', t.boss, { token }), 409, 'inbox.not_claimed')
  })

  test('started cases: the caller’s own, with state, status, who it waits on and the see link', async ({
    client,
    assert,
  }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const a = await start(client, t.applicant, permit.key, 'Ana')
    const direct = await publishOneStep('Trámite directo', { type: 'user', id: t.ids.direct })
    const b = await start(client, t.applicant, direct.key, 'Beto')
    await post(client, '/data/form/asignar/process/info', t.direct, {
      key_process: b.key,
      token: taskToken((await pendingTask(b.id)).id),
      flow_values: '{}',
    }).then((r) => r.assertStatus(200))
    await start(client, t.r1, permit.key, 'De otra persona')

    const res = await get(client, '/inside/inbox/started', t.applicant)
    res.assertStatus(200)
    const rows = res.body().data.rows as any[]
    assert.equal(res.body().data.total, 2)
    assert.deepEqual(
      rows.map((r) => r.code),
      [b.code, a.code],
      'most recently updated first'
    )
    assert.include(rows[0], { status: 'ended', waiting_on: '', process: 'Trámite directo' })
    assert.deepEqual(rows[0].state, { id: 'end', label: 'Finalizado', color: '#1C1066' })
    assert.isString(rows[0].ended_at)
    assert.include(rows[1], { status: 'open', waiting_on: 'Talento humano', key_process: a.key })
    assert.equal(rows[1].state.label, 'En revisión')
    const link = new URL(rows[1].link, 'http://x')
    assert.equal(link.pathname, '/forms/see')
    assert.equal(link.searchParams.get('key_process'), a.key)
    assert.equal(link.searchParams.get('data'), permit.key)
    assert.equal((await get(client, '/inside/inbox/started', t.outsider)).body().data.total, 0)
  })

  test('processes to start honour their starters; the save route agrees', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const teacher = await Role.findByOrFail('name', 'teacher')
    const other = await Area.create({ name: 'Bienestar', color: '#aa0000' })
    const byRole = await publishOneStep('Solo docentes', { type: 'user', id: t.ids.boss }, { roles: [teacher.id] })
    const byUser = await publishOneStep('Solo directo', { type: 'user', id: t.ids.boss }, { users: [t.ids.direct] })
    const byArea = await publishOneStep('Solo área', { type: 'user', id: t.ids.boss }, { areas: [permit.area.id] })
    await publishOneStep('Solo Bienestar', { type: 'user', id: t.ids.boss }, { areas: [other.id] })

    const names = async (token: string, search?: string) => {
      const res = await get(client, '/inside/inbox/startable', token, search ? { search } : {})
      res.assertStatus(200)
      return (res.body().data.processes as { name: string }[]).map((p) => p.name)
    }
    assert.deepEqual(await names(t.applicant), ['Solicitud de permiso'])
    assert.deepEqual(await names(t.direct), ['Solicitud de permiso', 'Solo directo'])
    assert.deepEqual(await names(t.r1), ['Solicitud de permiso', 'Solo área', 'Solo docentes'])
    assert.deepEqual(await names(t.outsider), ['Solicitud de permiso', 'Solo docentes'])
    assert.deepEqual(await names(t.r1, 'DOCEN'), ['Solo docentes'])
    const first = (await get(client, '/inside/inbox/startable', t.direct)).body().data.processes[1]
    assert.deepEqual(first, {
      key: byUser.key,
      name: 'Solo directo',
      label: 'Solo directo',
      color: '#1C1066',
      link: `/forms/new?data=${encodeURIComponent(byUser.key)}`,
    })
    // The save route asks the same question.
    const refused = await post(client, '/data/form/flows/process', t.applicant, {
      data: byRole.key,
      flow_values: JSON.stringify({ nombre: 'X' }),
    })
    assertRefused(refused, 403, 'engine.not_starter')
    assert.lengthOf(await db.from('cases').where('created_by', t.ids.applicant), 0)
    assert.isNumber((await start(client, t.r1, byArea.key, 'Y')).id, 'an area member starts the area’s process')
  })

  test('a form renamed after its version was cached (here or by another node) is listed by its new name', async ({
    client,
    assert,
  }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const names = async () =>
      ((await get(client, '/inside/inbox/startable', t.applicant)).body().data.processes as { name: string }[]).map(
        (p) => p.name
      )
    assert.deepEqual(await names(), ['Solicitud de permiso'])
    // The designer's rename, as another node makes it: this node's cached version is not told.
    await db.from('forms').where('key', permit.key).update({ name: 'Permisos y licencias' })
    assert.deepEqual(await names(), ['Permisos y licencias'])
  })

  test('search, filters by process, state and dates, and pagination', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const direct = await publishOneStep('Trámite directo', { type: 'user', id: t.ids.r1 })
    const permits = []
    for (const nombre of ['A', 'B', 'C']) permits.push(await start(client, t.applicant, permit.key, nombre))
    const d = await start(client, t.applicant, direct.key, 'D')

    const codes = async (qs: Record<string, string | number>) =>
      (await pendingOf(client, t.r1, qs)).rows.map((r) => r.code)
    assert.lengthOf(await codes({}), 4)
    assert.deepEqual(await codes({ process: direct.key }), [d.code])
    assert.sameMembers(
      await codes({ process: permit.key }),
      permits.map((p) => p.code)
    )
    assert.deepEqual(await codes({ process: direct.key, state: 'tramite' }), [d.code])
    assert.deepEqual(await codes({ state: 'tramite' }), [d.code], 'a state id across processes')
    assert.deepEqual(await codes({ search: permits[1].code.slice(2, 8).toLowerCase() }), [permits[1].code])
    assert.deepEqual(await codes({ search: 'directo' }), [d.code])
    assert.deepEqual(await codes({ search: '100%_!' }), [], 'LIKE wildcards are plain text')

    const today = new Date().toISOString().slice(0, 10)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    assert.lengthOf(await codes({ from: yesterday, to: today }), 4)
    assert.lengthOf(await codes({ from: tomorrow }), 0)
    assert.lengthOf(await codes({ to: yesterday }), 0)
    assert.lengthOf(await codes({ from: new Date(Date.now() - 3_600_000).toISOString() }), 4)

    const page1 = await pendingOf(client, t.r1, { per_page: 3 })
    const page2 = await pendingOf(client, t.r1, { per_page: 3, page: 2 })
    const page3 = await pendingOf(client, t.r1, { per_page: 3, page: 3 })
    assert.deepEqual([page1.rows.length, page2.rows.length, page3.rows.length], [3, 1, 0])
    assert.deepEqual([page1.total, page2.total, page3.total], [4, 4, 4])
    assert.equal(page1.rows[0].code, d.code, 'newest first')

    const started = await get(client, '/inside/inbox/started', t.applicant, {
      process: permit.key,
      state: 'revision',
      per_page: 2,
    })
    assert.equal(started.body().data.total, 3)
    assert.lengthOf(started.body().data.rows, 2)

    const options = await get(client, '/inside/inbox/filters', t.r1)
    options.assertStatus(200)
    const processes = options.body().data.processes as { key: string; name: string; states: { id: string }[] }[]
    assert.deepEqual(
      processes.map((p) => p.name),
      ['Solicitud de permiso', 'Trámite directo']
    )
    assert.deepEqual(
      processes[1].states.map((s) => s.id),
      ['init', 'tramite', 'end']
    )
  })

  test('bad filter values are a clear fail, never a 500 or an empty list', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ per_page: 0 }, /per_page/],
      [{ per_page: 101 }, /per_page/],
      [{ per_page: 'diez' }, /per_page/],
      [{ page: -1 }, /page/],
      [{ page: '1.5' }, /page/],
      [{ from: '2026-13-01' }, /from/],
      [{ from: '2026-02-30' }, /from/],
      [{ to: 'ayer' }, /«to»/],
      [{ from: '2026-05-02', to: '2026-05-01' }, /anterior/],
      [{ process: 'no-existe' }, /no-existe/],
      [{ state: 'Not A State!' }, /Not A State!/],
      [{ process: permit.key, state: 'tramite' }, /tramite/],
      [{ search: 'x'.repeat(101) }, /search/],
    ]
    for (const path of ['/inside/inbox/pending', '/inside/inbox/started']) {
      for (const [qs, text] of cases) {
        const res = await get(client, path, t.r1, qs)
        assert.equal(res.status(), 400, `${path} ${JSON.stringify(qs)}`)
        assert.equal(res.body().status, 'fail')
        assert.match(res.body().message, text)
      }
    }
    const twice = await client.get('/inside/inbox/pending?search=a&search=b').header('token', t.r1)
    twice.assertStatus(400)
    assert.match(twice.body().message, /search/)
  })

  test('summary: counts and the first pending steps', async ({ client, assert }) => {
    const permit = await publishPermit()
    const t = await people(client, permit.area.id)
    const direct = await publishOneStep('Trámite directo', { type: 'user', id: t.ids.r1 })
    const a = await start(client, t.applicant, permit.key, 'A')
    await start(client, t.applicant, permit.key, 'B')
    await start(client, t.applicant, direct.key, 'C')
    await start(client, t.r1, direct.key, 'D')
    ;(await put(client, '/inside/inbox/claim', t.r1, { token: taskToken((await pendingTask(a.id)).id) })).assertStatus(
      200
    )

    const res = await get(client, '/inside/inbox/summary', t.r1)
    res.assertStatus(200)
    assert.deepEqual(res.body().data.counts, {
      pending: 4,
      to_fill: 4,
      to_approve: 0,
      claimed_by_me: 1,
      started_open: 1,
      started_ended: 0,
      startable: 2,
    })
    assert.lengthOf(res.body().data.pending, 4)
    const applicant = (await get(client, '/inside/inbox/summary', t.applicant)).body().data
    assert.include(applicant.counts, { pending: 0, started_open: 3, startable: 2 })
    // r2 no longer counts the step r1 holds.
    assert.equal((await get(client, '/inside/inbox/summary', t.r2)).body().data.counts.pending, 1)
  })

  test('navigation: the core screens by role, then the plugins that ship screens (documents: everyone)', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'alumna', role: 'student' })
    await makeUser({ username: 'docente', role: 'teacher' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const paths = async (user: string) => {
      const res = await get(client, '/inside/navigation', await tokenFor(client, user))
      res.assertStatus(200)
      return (res.body().data.entries as { path: string; label: string }[]).map((e) => e.path)
    }
    assert.deepEqual(await paths('alumna'), ['/process', '/status', '/documents', '/documents/indexes'])
    assert.deepEqual(await paths('docente'), ['/process', '/status', '/documents', '/documents/indexes'])
    assert.deepEqual(await paths('jefa'), [
      '/process',
      '/users',
      '/plugin_settings',
      '/status',
      '/documents',
      '/documents/indexes',
      '/documents/retention',
    ])
    ;(await client.get('/inside/navigation')).assertStatus(401)
  })
})
