import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { LibraryListing, UploadAnswer } from '../../shared/library.js'
import {
  api,
  areaWith,
  assertFail,
  libraryCounts,
  person,
  resetLibrary,
  roleId,
  txt,
  makeFolder,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'

async function list(client: Client, who: Person, view: string, fields: Record<string, unknown> = {}) {
  const response = await api(client, 'list', who.token, { view }, fields)
  response.assertStatus(200)
  return response.body().data as LibraryListing
}

async function share(type: 'file' | 'folder', id: number, by: number, grantee: [string, number], permission = 'read') {
  await db.table('documents_shares').insert({
    subject_type: type,
    subject_id: id,
    grantee_type: grantee[0],
    grantee_id: grantee[1],
    permission,
    created_by: by,
    created_at: new Date(),
  })
}

test.group('documents library: folders and views', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('a folder is made in my root and inside a folder; my root and the folder list them with breadcrumbs', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_lib', 'teacher')
    const informes = await makeFolder(client, ana, 'Informes')
    assert.include(informes, { name: 'Informes', type: 'normal', parent_id: null, permission: 'all' })
    assert.equal(informes.owner?.id, ana.id)
    const y2026 = await makeFolder(client, ana, '2026', informes.id)

    const root = await list(client, ana, 'mine')
    assert.deepEqual(
      root.folders.map((f) => f.name),
      ['Informes']
    )
    assert.deepEqual(root.breadcrumbs, [{ id: null, name: '' }])
    const inside = await list(client, ana, 'mine', { folder: informes.id })
    assert.deepEqual(
      inside.folders.map((f) => f.id),
      [y2026.id]
    )
    const deeper = await list(client, ana, 'mine', { folder: y2026.id })
    assert.deepEqual(
      deeper.breadcrumbs.map((b) => b.name),
      ['', 'Informes', '2026']
    )
    assert.equal(deeper.usage.used, 0)
    assert.isAbove(deeper.usage.quota, 0)
    // Only those who manage retention schedules are offered theirs on the rows.
    assert.isFalse(deeper.can_assign_retention)
    const sara = await person(client, 'sara_lib', 'supervisor')
    assert.isTrue((await list(client, sara, 'mine')).can_assign_retention)
  })

  test('bad folder names, a taken name, a synchronized folder without agent and a foreign parent are refused, nothing made', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_lib', 'teacher')
    const beto = await person(client, 'beto_lib', 'student')
    const mine = await makeFolder(client, ana, 'Contratos')
    const before = await libraryCounts()
    for (const name of ['', '   ', '../etc', 'a/b', 'a\\b', '..', 'tab\there', 'x'.repeat(256)]) {
      assertFail(await api(client, 'makeFolder', ana.token, {}, { name }), 400, 'documents.invalid_name')
    }
    assertFail(await api(client, 'makeFolder', ana.token, {}, { name: 'contratos' }), 409, 'documents.name_taken')
    assertFail(
      await api(client, 'makeFolder', ana.token, {}, { name: 'Sync', type: 'synchronized' }),
      400,
      'documents.agent_path_missing'
    )
    assertFail(
      await api(
        client,
        'makeFolder',
        ana.token,
        {},
        { name: 'Sync', type: 'synchronized', path: 'C:/docs', agent_id: '3' }
      ),
      409,
      'documents.agent_offline'
    )
    assertFail(
      await api(client, 'makeFolder', ana.token, {}, { name: 'Otro', type: 'raro' }),
      400,
      'documents.invalid_folder_type'
    )
    // Beto may not write into ana's folder, nor learn that it exists; a non-numeric id is refused too.
    assertFail(
      await api(client, 'makeFolder', beto.token, {}, { name: 'Intruso', parent_id: String(mine.id) }),
      404,
      'documents.access_not_found'
    )
    assertFail(
      await api(client, 'makeFolder', beto.token, {}, { name: 'Intruso', parent_id: '1 OR 1=1' }),
      400,
      'documents.invalid_id'
    )
    assertFail(
      await api(client, 'list', beto.token, { view: 'mine' }, { folder: mine.id }),
      404,
      'documents.access_not_found'
    )
    assertFail(await api(client, 'list', ana.token, { view: 'everything' }), 400, 'documents.invalid_view')
    assertFail(await api(client, 'list', ana.token, { view: 'mine' }, { sort: 'owner' }), 400, 'documents.invalid_sort')
    assertFail(await api(client, 'list', ana.token, { view: 'mine' }, { limit: '-1' }), 400, 'documents.invalid_paging')
    ;(await api(client, 'list', null, { view: 'mine' })).assertStatus(401)
    assert.deepEqual(await libraryCounts(), before)
  })

  test('a read-only share lets the grantee list the folder but not write in it', async ({ client, assert }) => {
    const ana = await person(client, 'ana_lib', 'teacher')
    const beto = await person(client, 'beto_lib', 'student')
    const shared = await makeFolder(client, ana, 'Compartida')
    await share('folder', shared.id, ana.id, ['user', beto.id], 'read')
    const seen = await list(client, beto, 'shared', { folder: shared.id })
    assert.equal(seen.folder?.permission, 'read')
    assert.deepEqual(
      seen.breadcrumbs.map((b) => b.name),
      ['', 'Compartida']
    )
    assertFail(
      await api(client, 'makeFolder', beto.token, {}, { name: 'Mía', parent_id: String(shared.id) }),
      403,
      'documents.access_read_only'
    )
    const upload = await uploadFiles(client, beto.token, [{ name: 'nota.txt', bytes: txt('hola') }], {
      folder_id: String(shared.id),
    })
    assertFail(upload, 403, 'documents.access_read_only')
  })

  test('Shared lists what is shared with me, my areas and roles, not my own nor trashed items', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_lib', 'teacher')
    const beto = await person(client, 'beto_lib', 'student')
    const area = await areaWith('Archivo', [beto.id])
    const byUser = await makeFolder(client, ana, 'Para Beto')
    const byArea = await makeFolder(client, ana, 'Para el área')
    const byRole = await makeFolder(client, ana, 'Para estudiantes')
    const trashed = await makeFolder(client, ana, 'En la papelera')
    await share('folder', byUser.id, ana.id, ['user', beto.id], 'all')
    await share('folder', byArea.id, ana.id, ['area', area], 'read')
    await share('folder', byRole.id, ana.id, ['role', await roleId('student')], 'read')
    await share('folder', trashed.id, ana.id, ['user', beto.id], 'read')
    ;(await api(client, 'trash', ana.token, {}, { folders: [trashed.id] })).assertStatus(200)
    const up = (await uploadFiles(client, ana.token, [{ name: 'acta.txt', bytes: txt('acta') }])).body()
      .data as UploadAnswer
    const acta = up.results[0]
    assert.equal(acta.status, 'stored')
    if (acta.status !== 'stored') return
    await share('file', acta.file.id, ana.id, ['user', beto.id], 'read')

    const shared = await list(client, beto, 'shared')
    assert.deepEqual(
      shared.folders.map((f) => [f.name, f.permission]),
      [
        ['Para Beto', 'all'],
        ['Para el área', 'read'],
        ['Para estudiantes', 'read'],
      ]
    )
    assert.deepEqual(
      shared.files.map((f) => [f.name, f.permission, f.owner.id]),
      [['acta.txt', 'read', ana.id]]
    )
    assert.lengthOf((await list(client, ana, 'shared')).folders, 0)
    // With 'all' beto makes a folder in ana's folder: his, listed there for both.
    const his = await makeFolder(client, beto, 'De Beto', byUser.id)
    assert.equal(his.owner?.id, beto.id)
    const anaSees = await list(client, ana, 'mine', { folder: byUser.id })
    assert.deepEqual(
      anaSees.folders.map((f) => f.name),
      ['De Beto']
    )
  })

  test('paging and sorting: folders first, then files, one offset over both', async ({ client, assert }) => {
    const ana = await person(client, 'ana_lib', 'teacher')
    await makeFolder(client, ana, 'b-carpeta')
    await makeFolder(client, ana, 'a-carpeta')
    const files = [
      { name: 'c.txt', bytes: txt('ccc') },
      { name: 'a.txt', bytes: txt('a') },
      { name: 'b.txt', bytes: txt('bbbbbb') },
    ]
    ;(await uploadFiles(client, ana.token, files)).assertStatus(200)
    const names = (l: LibraryListing) => [...l.folders.map((f) => f.name), ...l.files.map((f) => f.name)]
    const first = await list(client, ana, 'mine', { limit: 3 })
    assert.equal(first.total, 5)
    assert.deepEqual(names(first), ['a-carpeta', 'b-carpeta', 'a.txt'])
    const second = await list(client, ana, 'mine', { limit: 3, offset: 3 })
    assert.deepEqual(names(second), ['b.txt', 'c.txt'])
    const bySize = await list(client, ana, 'mine', { sort: 'size', order: 'desc' })
    assert.deepEqual(
      bySize.files.map((f) => f.name),
      ['b.txt', 'c.txt', 'a.txt']
    )
    assert.equal(bySize.usage.used, 10)
  })
})
