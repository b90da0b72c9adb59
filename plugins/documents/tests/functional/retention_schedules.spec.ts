import { test } from '@japa/runner'
import { indexPath } from '../../shared/indexes.js'
import type { DueRow, EffectiveRetention, ScheduleRow } from '../../shared/retention.js'
import { api, assertFail, call, makeFolder, person, type Client, type Person } from './library_fixtures.js'
import {
  SCHEDULE,
  age,
  assignTo,
  makeIndex,
  makeSchedule,
  resetRetention,
  retention,
  retentionSnapshot,
  uploaded,
} from './retention_fixtures.js'

async function effective(client: Client, admin: Person, type: string, id: number) {
  const response = await retention(client, 'effective', admin.token, {}, { target_type: type, target_id: String(id) })
  response.assertStatus(200)
  const answer = response.body().data as EffectiveRetention
  const from = answer.effective
  return from && [from.schedule_code, from.from_type, from.from_id, from.from_name]
}

test.group('documents retention: schedules and their assignments', (group) => {
  group.each.setup(async () => {
    await resetRetention()
  })

  test('an administrator makes, lists, changes and deletes a schedule; others may not', async ({ client, assert }) => {
    const admin = await person(client, 'ret_admin', 'superuser')
    const boss = await person(client, 'ret_boss', 'supervisor')
    const teacher = await person(client, 'ret_teacher', 'teacher')
    const made = await makeSchedule(client, admin, {
      responsible_id: String(boss.id),
      labels: [
        { name: 'Vital', color: '#AA0000' },
        { name: 'Histórico', color: '#00aa00' },
      ],
    })
    assert.include(made, { code: SCHEDULE.code, serie: 'Contratos', active_years: 2, central_years: 8 })
    assert.equal(made.disposition, 'delete')
    assert.deepEqual(made.responsible, { id: boss.id, name: 'ret_boss Test' })
    assert.deepEqual(made.labels, [
      { name: 'Vital', color: '#aa0000' },
      { name: 'Histórico', color: '#00aa00' },
    ])

    // A supervisor is an administrator too.
    const listed = await retention(client, 'schedules', boss.token)
    listed.assertStatus(200)
    assert.deepEqual(
      (listed.body().data as ScheduleRow[]).map((s) => s.code),
      [SCHEDULE.code]
    )

    const changed = await retention(
      client,
      'updateSchedule',
      admin.token,
      { id: made.id },
      { ...SCHEDULE, code: 'AD-01', disposition: 'archive', active_years: '0', central_years: '5', labels: [] }
    )
    changed.assertStatus(200)
    assert.include(changed.body().data, { code: 'AD-01', disposition: 'archive', active_years: 0, central_years: 5 })
    assert.isNull((changed.body().data as ScheduleRow).responsible)
    assert.deepEqual((changed.body().data as ScheduleRow).labels, [])

    // Anyone else is refused every administrator route, and nothing changes.
    const before = await retentionSnapshot()
    for (const [name, params, fields] of [
      ['schedules', {}, {}],
      ['createSchedule', {}, { ...SCHEDULE, code: 'X' }],
      ['updateSchedule', { id: made.id }, { ...SCHEDULE, code: 'Y' }],
      ['deleteSchedule', { id: made.id }, {}],
      ['assignments', {}, {}],
      ['due', {}, {}],
    ] as const) {
      const refused = await retention(client, name, teacher.token, params, fields)
      assert.equal(refused.status(), 403, name)
    }
    assert.equal(await retentionSnapshot(), before)

    ;(await retention(client, 'deleteSchedule', admin.token, { id: made.id })).assertStatus(200)
    assert.lengthOf((await retention(client, 'schedules', admin.token)).body().data, 0)
    assertFail(
      await retention(client, 'deleteSchedule', admin.token, { id: made.id }),
      404,
      'retention_schedule_not_found'
    )
  })

  test('bad input is refused with its reason and stores nothing', async ({ client, assert }) => {
    const admin = await person(client, 'ret_admin2', 'superuser')
    const kept = await makeSchedule(client, admin)
    const before = await retentionSnapshot()
    const cases: [Record<string, unknown>, string][] = [
      [{ active_years: '-1' }, 'retention_bad_years'],
      [{ central_years: '-3' }, 'retention_bad_years'],
      [{ active_years: '1.5' }, 'retention_bad_years'],
      [{ central_years: '201' }, 'retention_bad_years'],
      [{ active_years: '' }, 'retention_bad_years'],
      [{ disposition: 'shred' }, 'retention_bad_disposition'],
      [{ disposition: '' }, 'retention_bad_disposition'],
      [{ code: '  ' }, 'retention_bad_code'],
      [{ code: 'x'.repeat(41) }, 'retention_bad_code'],
      [{ serie: '' }, 'retention_bad_serie'],
      [{ responsible_id: '999999' }, 'retention_bad_responsible'],
      [{ responsible_id: 'ana' }, 'retention_bad_responsible'],
      [{ labels: [{ name: 'A', color: 'red' }] }, 'retention_bad_labels'],
      [{ labels: [{ name: '', color: '#112233' }] }, 'retention_bad_labels'],
      [
        {
          labels: [
            { name: 'A', color: '#112233' },
            { name: 'a', color: '#445566' },
          ],
        },
        'retention_bad_labels',
      ],
      [{ labels: '{"name":' }, 'retention_bad_labels'],
    ]
    for (const [fields, key] of cases) {
      const made = await retention(client, 'createSchedule', admin.token, {}, { ...SCHEDULE, code: 'NEW-1', ...fields })
      assertFail(made, 400, key)
      const changed = await retention(
        client,
        'updateSchedule',
        admin.token,
        { id: kept.id },
        { ...SCHEDULE, ...fields }
      )
      assertFail(changed, 400, key)
    }
    // A code is one schedule's.
    assertFail(await retention(client, 'createSchedule', admin.token, {}, SCHEDULE), 409, 'retention_code_taken')
    // Unknown schedules.
    assertFail(
      await retention(client, 'updateSchedule', admin.token, { id: kept.id + 1000 }, SCHEDULE),
      404,
      'retention_schedule_not_found'
    )
    assert.equal(await retentionSnapshot(), before)
  })

  test('assignments name a folder, index or document that exists, and a schedule that exists', async ({
    client,
    assert,
  }) => {
    const admin = await person(client, 'ret_admin3', 'superuser')
    const ana = await person(client, 'ret_ana', 'teacher')
    const schedule = await makeSchedule(client, admin)
    const folder = await makeFolder(client, ana, 'Contratos')
    const doc = await uploaded(client, ana, 'contrato.txt', folder.id)
    const gone = await makeFolder(client, ana, 'Papelera')
    ;(await api(client, 'trash', ana.token, {}, { folders: [gone.id] })).assertStatus(200)
    const before = await retentionSnapshot()
    const attempts: [Record<string, unknown>, number, string][] = [
      [
        { target_type: 'folder', target_id: '999999', schedule_id: String(schedule.id) },
        404,
        'retention_target_not_found',
      ],
      [
        { target_type: 'file', target_id: '999999', schedule_id: String(schedule.id) },
        404,
        'retention_target_not_found',
      ],
      [
        { target_type: 'index', target_id: '999999', schedule_id: String(schedule.id) },
        404,
        'retention_target_not_found',
      ],
      [
        { target_type: 'folder', target_id: String(gone.id), schedule_id: String(schedule.id) },
        404,
        'retention_target_not_found',
      ],
      [
        { target_type: 'folder', target_id: String(folder.id), schedule_id: '999999' },
        404,
        'retention_schedule_not_found',
      ],
      [
        { target_type: 'file', target_id: String(doc.id), schedule_id: String(schedule.id + 1) },
        404,
        'retention_schedule_not_found',
      ],
      [
        { target_type: 'area', target_id: String(folder.id), schedule_id: String(schedule.id) },
        400,
        'retention_bad_target',
      ],
      [{ target_type: 'folder', target_id: 'x', schedule_id: String(schedule.id) }, 400, 'invalid_id'],
    ]
    for (const [fields, status, key] of attempts) {
      assertFail(await retention(client, 'assign', admin.token, {}, fields), status, key)
    }
    assert.equal(await retentionSnapshot(), before)
    // Only administrators assign.
    const refused = await retention(
      client,
      'assign',
      ana.token,
      {},
      { target_type: 'folder', target_id: String(folder.id), schedule_id: String(schedule.id) }
    )
    assert.equal(refused.status(), 403)
    assert.equal(await retentionSnapshot(), before)
  })

  test('the nearest assignment wins: the document, then its index (a sub-index first), then the nearest folder', async ({
    client,
    assert,
  }) => {
    const admin = await person(client, 'ret_admin4', 'superuser')
    const ana = await person(client, 'ret_ana4', 'teacher')
    const sched = async (code: string, years: number) =>
      makeSchedule(client, admin, { code, active_years: String(years), central_years: '0' })
    const top = await sched('TOP', 1)
    const mid = await sched('MID', 2)
    const byIndex = await sched('IDX', 3)
    const bySub = await sched('SUB', 4)
    const own = await sched('OWN', 5)

    const a = await makeFolder(client, ana, 'A')
    const b = await makeFolder(client, ana, 'B', a.id)
    const c = await makeFolder(client, ana, 'C', b.id)
    const doc = await uploaded(client, ana, 'informe.txt', c.id)
    const other = await uploaded(client, ana, 'suelto.txt')

    assert.isNull(await effective(client, admin, 'file', doc.id))
    await assignTo(client, admin, 'folder', a.id, top.id)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['TOP', 'folder', a.id, 'A'])
    assert.deepEqual(await effective(client, admin, 'folder', c.id), ['TOP', 'folder', a.id, 'A'])
    await assignTo(client, admin, 'folder', b.id, mid.id)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['MID', 'folder', b.id, 'B'])

    // Filed under an index with a schedule: the index is nearer than any folder.
    const indexId = await makeIndex(client, ana, 'Contratos')
    const subId = await makeIndex(client, ana, 'Obra', indexId)
    const filed = await call(client, 'put', indexPath('file', { id: doc.id, index: subId }), ana.token, {
      values: { numero: 'N-1' },
    })
    filed.assertStatus(200)
    // The sub-index has none of its own: no index schedule yet, the folder's still applies.
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['MID', 'folder', b.id, 'B'])
    await assignTo(client, admin, 'index', indexId, byIndex.id)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['IDX', 'index', indexId, 'Contratos'])
    await assignTo(client, admin, 'index', subId, bySub.id)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['SUB', 'index', subId, 'Obra'])
    // The document's own wins over all; removing it gives the sub-index's back.
    await assignTo(client, admin, 'file', doc.id, own.id)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['OWN', 'file', doc.id, 'informe.txt'])
    // A file outside any of them has none.
    assert.isNull(await effective(client, admin, 'file', other.id))

    // The due list follows the same rule: the document's own 5 years.
    await age(doc.id, 4)
    assert.lengthOf((await retention(client, 'due', admin.token)).body().data, 0)
    await age(doc.id, 6)
    const due = (await retention(client, 'due', admin.token)).body().data as DueRow[]
    assert.deepEqual(
      due.map((d) => [d.file_name, d.schedule_code, d.from_type, d.responsible.id]),
      [['informe.txt', 'OWN', 'file', ana.id]]
    )
    await assignTo(client, admin, 'file', doc.id, null)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['SUB', 'index', subId, 'Obra'])
    // Deleting a schedule takes its assignments: the parent index's applies again.
    ;(await retention(client, 'deleteSchedule', admin.token, { id: bySub.id })).assertStatus(200)
    assert.deepEqual(await effective(client, admin, 'file', doc.id), ['IDX', 'index', indexId, 'Contratos'])
    const assigned = (await retention(client, 'assignments', admin.token)).body().data as { target_name: string }[]
    assert.sameMembers(
      assigned.map((r) => r.target_name),
      ['A', 'B', 'Contratos']
    )
  })
})
