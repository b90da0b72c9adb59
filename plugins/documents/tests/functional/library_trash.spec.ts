import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { FileRow, LibraryListing, UploadAnswer } from '../../shared/library.js'
import { libraryJobs } from '../../server/library/jobs.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import {
  api,
  assertFail,
  libraryCounts,
  objectExists,
  person,
  resetLibrary,
  indexed,
  searchRow,
  settings,
  storedKeys,
  txt,
  makeFolder,
  uploadFiles,
  type Client,
  type Person,
  assertUsageCounted,
} from './library_fixtures.js'

async function folderOf(client: Client, who: Person, name: string, parent?: number): Promise<number> {
  return (await makeFolder(client, who, name, parent)).id
}

async function fileIn(client: Client, who: Person, name: string, folder?: number): Promise<FileRow> {
  const response = await uploadFiles(client, who.token, [{ name, bytes: txt(`bytes of ${name}`) }], {
    ...(folder ? { folder_id: String(folder) } : {}),
  })
  const result = (response.body().data as UploadAnswer).results[0]
  if (result.status !== 'stored') throw new Error(JSON.stringify(result))
  return result.file
}

async function view(client: Client, who: Person, name: string, folder?: number) {
  const response = await api(client, 'list', who.token, { view: name }, folder ? { folder } : {})
  response.assertStatus(200)
  return response.body().data as LibraryListing
}

const names = (l: LibraryListing) => [...l.folders.map((f) => f.name), ...l.files.map((f) => f.name)]

test.group('documents library: trash', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('a folder goes to the trash with its content and comes back with it; restoring twice fails', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_trash', 'teacher')
    const top = await folderOf(client, ana, 'Proyecto')
    const sub = await folderOf(client, ana, 'Anexos', top)
    const inTop = await fileIn(client, ana, 'plan.txt', top)
    const inSub = await fileIn(client, ana, 'anexo.txt', sub)
    const loose = await fileIn(client, ana, 'suelto.txt')

    const trashed = await api(client, 'trash', ana.token, {}, { folders: [top], files: [loose.id] })
    trashed.assertStatus(200)
    assert.deepEqual(names(await view(client, ana, 'mine')), [])
    // Only what was trashed itself is listed in the trash.
    assert.deepEqual(names(await view(client, ana, 'trash')), ['Proyecto', 'suelto.txt'])
    assert.isNull(await searchRow(inSub.id))
    assertFail(
      await api(client, 'list', ana.token, { view: 'mine' }, { folder: top }),
      404,
      'documents.access_not_found'
    )
    assertFail(await api(client, 'trash', ana.token, {}, { files: [loose.id] }), 409, 'documents.already_in_trash')
    // Something inside a trashed folder cannot be restored by itself.
    assertFail(await api(client, 'restore', ana.token, {}, { files: [inTop.id] }), 404, 'documents.not_in_trash')

    ;(await api(client, 'restore', ana.token, {}, { folders: [top] })).assertStatus(200)
    assert.deepEqual(names(await view(client, ana, 'mine', top)), ['Anexos', 'plan.txt'])
    assert.deepEqual(names(await view(client, ana, 'mine', sub)), ['anexo.txt'])
    assert.deepEqual(await searchRow(inSub.id), indexed('anexo.txt', ''))
    assert.deepEqual(names(await view(client, ana, 'trash')), ['suelto.txt'])
    const before = await libraryCounts()
    assertFail(await api(client, 'restore', ana.token, {}, { folders: [top] }), 404, 'documents.not_in_trash')
    assert.deepEqual(await libraryCounts(), before)
  })

  test('a file comes back to my root when its folder is gone, with a suffix when its name is taken', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_trash', 'teacher')
    const folder = await folderOf(client, ana, 'Temporal')
    const file = await fileIn(client, ana, 'acta.txt', folder)
    ;(await api(client, 'trash', ana.token, {}, { files: [file.id] })).assertStatus(200)
    ;(await api(client, 'trash', ana.token, {}, { folders: [folder] })).assertStatus(200)
    await fileIn(client, ana, 'acta.txt')
    ;(await api(client, 'restore', ana.token, {}, { files: [file.id] })).assertStatus(200)
    assert.deepEqual(names(await view(client, ana, 'mine')), ['acta (2).txt', 'acta.txt'])
  })

  test('emptying deletes rows and stored objects; emptying twice fails; a separately trashed item inside survives', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_trash', 'teacher')
    const folder = await folderOf(client, ana, 'Viejo')
    const gone = await fileIn(client, ana, 'borrar.txt', folder)
    const kept = await fileIn(client, ana, 'aparte.txt', folder)
    const keysBefore = await storedKeys()
    assert.lengthOf(keysBefore, 2)
    ;(await api(client, 'trash', ana.token, {}, { files: [kept.id] })).assertStatus(200)
    ;(await api(client, 'trash', ana.token, {}, { folders: [folder] })).assertStatus(200)

    const emptied = await api(client, 'empty', ana.token, {}, { folders: [folder] })
    emptied.assertStatus(200)
    assert.equal(emptied.body().data.usage.used, Buffer.byteLength('bytes of aparte.txt'))
    assert.isNull(await db.from('documents_files').where('id', gone.id).first())
    assert.isNull(await db.from('documents_folders').where('id', folder).first())
    const remaining = await storedKeys()
    assert.lengthOf(remaining, 1)
    const deletedKey = keysBefore.find((k) => !remaining.includes(k))!
    await waitUntil(async () => !(await objectExists(deletedKey)), 15_000, 'the purge job deleting the object')
    assert.isTrue(await objectExists(remaining[0]))
    // The file trashed by itself is still in the trash, now at my root.
    assert.deepEqual(names(await view(client, ana, 'trash')), ['aparte.txt'])
    assertFail(await api(client, 'empty', ana.token, {}, { folders: [folder] }), 404, 'documents.not_in_trash')
    const logged = await db.from('audit_logs').where('action', 'documents.empty_trash').where('actor_id', ana.id)
    assert.lengthOf(logged, 1)
    // SQLite gives the JSON column as text, MariaDB's driver already parsed.
    const data = typeof logged[0].data === 'string' ? JSON.parse(logged[0].data) : logged[0].data
    assert.deepEqual(data, { files: [], folders: [folder] })

    // Emptying everything; a second time there is nothing left and nothing fails.
    ;(await api(client, 'empty', ana.token)).assertStatus(200)
    assert.deepEqual(await storedKeys(), [])
    const again = await api(client, 'empty', ana.token)
    again.assertStatus(200)
    assert.deepEqual(again.body().data.files, [])
    await waitUntil(async () => !(await objectExists(remaining[0])), 15_000, 'the purge job deleting the last object')
    await assertUsageCounted(assert)
  })

  test('someone else cannot trash, restore or empty my items; a read-only grantee cannot trash', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_trash', 'teacher')
    const beto = await person(client, 'beto_trash', 'student')
    const folder = await folderOf(client, ana, 'Mía')
    const file = await fileIn(client, ana, 'mio.txt', folder)
    await db.table('documents_shares').insert({
      subject_type: 'folder',
      subject_id: folder,
      grantee_type: 'user',
      grantee_id: beto.id,
      permission: 'read',
      created_by: ana.id,
      created_at: new Date(),
    })
    const before = await libraryCounts()
    assertFail(await api(client, 'trash', beto.token, {}, { files: [file.id] }), 403, 'documents.access_read_only')
    assertFail(await api(client, 'trash', beto.token, {}, { files: [999999] }), 404, 'documents.access_not_found')
    assertFail(await api(client, 'trash', beto.token, {}, { files: 'uno' }), 400, 'documents.invalid_id')
    assertFail(await api(client, 'trash', ana.token), 400, 'documents.nothing_selected')
    // One bad id among good ones: nothing moves.
    assertFail(
      await api(client, 'trash', ana.token, {}, { files: [file.id, 999999] }),
      404,
      'documents.access_not_found'
    )
    assert.deepEqual(names(await view(client, ana, 'mine', folder)), ['mio.txt'])
    ;(await api(client, 'trash', ana.token, {}, { folders: [folder] })).assertStatus(200)
    assertFail(await api(client, 'restore', beto.token, {}, { folders: [folder] }), 404, 'documents.not_in_trash')
    assertFail(await api(client, 'empty', beto.token, {}, { folders: [folder] }), 404, 'documents.not_in_trash')
    assert.deepEqual(await libraryCounts(), before)
    assert.lengthOf((await view(client, beto, 'shared')).folders, 0)
  })

  test('the daily job empties what has been in the trash longer than trashDays', async ({ client, assert }) => {
    const ana = await person(client, 'ana_trash', 'teacher')
    const old = await fileIn(client, ana, 'viejo.txt')
    const fresh = await fileIn(client, ana, 'reciente.txt')
    ;(await api(client, 'trash', ana.token, {}, { files: [old.id, fresh.id] })).assertStatus(200)
    await settings({ trashDays: 10 })
    await db
      .from('documents_files')
      .where('id', old.id)
      .update({ trashed_at: new Date(Date.now() - 11 * 24 * 3600 * 1000) })
    const job = libraryJobs.find((j) => j.name === 'purge_trash')!
    const jobContext = { id: 'test', name: 'documents:purge_trash', attempt: 1, signal: new AbortController().signal }
    await job.handle({}, jobContext)
    assert.deepEqual(names(await view(client, ana, 'trash')), ['reciente.txt'])
    // Run again: nothing more to do, nothing fails.
    await job.handle({}, jobContext)
    assert.deepEqual(names(await view(client, ana, 'trash')), ['reciente.txt'])
    await assertUsageCounted(assert)
  })
})
