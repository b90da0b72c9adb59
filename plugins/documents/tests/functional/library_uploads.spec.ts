import { test } from '@japa/runner'
import type { FileRow, LibraryListing, UploadAnswer, VersionRow } from '../../shared/library.js'
import {
  EXE,
  api,
  assertFail,
  libraryCounts,
  pdf,
  person,
  quota,
  resetLibrary,
  indexed,
  searchRow,
  settings,
  storageObjects,
  text,
  txt,
  uploadFiles,
  type Client,
  type Person,
  assertUsageCounted,
} from './library_fixtures.js'

async function uploaded(client: Client, who: Person, files: { name: string; bytes: Uint8Array }[], fields = {}) {
  const response = await uploadFiles(client, who.token, files, fields)
  response.assertStatus(200)
  return response.body().data as UploadAnswer
}

/** A file answer's bytes as text (the client hands binary bodies over as a Buffer). */
const bytesOf = (response: { body(): unknown }) => Buffer.from(response.body() as Buffer).toString('utf8')

function stored(answer: UploadAnswer, index = 0): FileRow {
  const result = answer.results[index]
  if (result.status !== 'stored') throw new Error(`not stored: ${JSON.stringify(result)}`)
  return result.file
}

test.group('documents library: uploads, content and versions', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('many files in one request; a clash gets " (2)"; a PDF has its pages; a blocked file alone is refused', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    const folder = (await api(client, 'makeFolder', ana.token, {}, { name: 'Entrada' })).body().data.id as number
    const objects = await storageObjects()
    const answer = await uploaded(
      client,
      ana,
      [
        { name: 'nota.txt', bytes: txt('uno') },
        { name: 'nota.txt', bytes: txt('dos') },
        { name: 'plano.pdf', bytes: await pdf(3) },
        { name: 'setup.exe', bytes: EXE },
      ],
      { folder_id: String(folder) }
    )
    assert.deepEqual(
      answer.results.map((r) => [r.name, r.status]),
      [
        ['nota.txt', 'stored'],
        ['nota.txt', 'stored'],
        ['plano.pdf', 'stored'],
        ['setup.exe', 'refused'],
      ]
    )
    assert.equal(stored(answer, 1).name, 'nota (2).txt')
    assert.include(stored(answer, 2), { pages: 3, mime: 'application/pdf', extension: 'pdf', current_version: 1 })
    const refused = answer.results[3]
    assert.isTrue(refused.status === 'refused' && refused.message.length > 0)
    const listing = (await api(client, 'list', ana.token, { view: 'mine' }, { folder })).body().data as LibraryListing
    assert.deepEqual(
      listing.files.map((f) => f.name),
      ['nota (2).txt', 'nota.txt', 'plano.pdf']
    )
    assert.equal(answer.usage.used, listing.usage.used)
    assert.deepEqual(await searchRow(stored(answer).id), indexed('nota.txt', ''))
    assert.lengthOf(await storageObjects(), objects.length + 3)
    await assertUsageCounted(assert)
  })

  test('content: inline or as an attachment, a version by number; opening records Recent', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    const file = stored(await uploaded(client, ana, [{ name: 'carta.txt', bytes: txt('primera') }]))
    const v2 = stored(
      await uploaded(client, ana, [{ name: 'carta-v2.txt', bytes: txt('segunda versión') }], {
        new_version_of: String(file.id),
      })
    )
    assert.equal(v2.id, file.id)
    assert.equal(v2.current_version, 2)
    assert.equal(v2.name, 'carta.txt')

    const inline = await api(client, 'content', ana.token, { id: file.id })
    inline.assertStatus(200)
    assert.equal(bytesOf(inline), 'segunda versión')
    assert.match(inline.header('content-disposition') ?? '', /^inline/)
    const first = await api(client, 'content', ana.token, { id: file.id }, { version: '1', download: '1' })
    assert.equal(bytesOf(first), 'primera')
    assert.match(first.header('content-disposition') ?? '', /^attachment/)
    assertFail(
      await api(client, 'content', ana.token, { id: file.id }, { version: '9' }),
      404,
      'documents.version_not_found'
    )

    const versions = (await api(client, 'versions', ana.token, { id: file.id })).body().data as VersionRow[]
    assert.deepEqual(
      versions.map((v) => [v.number, v.name, v.current, v.created_by?.id]),
      [
        [2, 'carta-v2.txt', true, ana.id],
        [1, 'carta.txt', false, ana.id],
      ]
    )
    const restored = (await api(client, 'restoreVersion', ana.token, { id: file.id, number: 1 })).body().data as FileRow
    assert.equal(restored.current_version, 3)
    assert.equal(bytesOf(await api(client, 'content', ana.token, { id: file.id })), 'primera')
    // The restored version shares the first one's object: no more room taken.
    const usage = (await api(client, 'usage', ana.token)).body().data
    assert.equal(usage.used, Buffer.byteLength('primera') + Buffer.byteLength('segunda versión'))

    const recent = (await api(client, 'list', ana.token, { view: 'recent' })).body().data as LibraryListing
    assert.deepEqual(
      recent.files.map((f) => f.id),
      [file.id]
    )
    assert.isString(recent.files[0].opened_at)
    await assertUsageCounted(assert)
  })

  test('someone else’s file or folder: no content, versions, new version or upload into it; nothing stored', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    const beto = await person(client, 'beto_up', 'student')
    const file = stored(await uploaded(client, ana, [{ name: 'privado.txt', bytes: txt('secreto') }]))
    const folder = (await api(client, 'makeFolder', ana.token, {}, { name: 'Privada' })).body().data.id as number
    const before = await libraryCounts()
    const objects = await storageObjects()
    for (const name of ['content', 'versions', 'file', 'comments'] as const) {
      assertFail(await api(client, name, beto.token, { id: file.id }), 404, 'documents.access_not_found')
    }
    assertFail(
      await api(client, 'restoreVersion', beto.token, { id: file.id, number: 1 }),
      404,
      'documents.access_not_found'
    )
    assertFail(
      await uploadFiles(client, beto.token, [{ name: 'x.txt', bytes: txt('x') }], { new_version_of: String(file.id) }),
      404,
      'documents.access_not_found'
    )
    assertFail(
      await uploadFiles(client, beto.token, [{ name: 'x.txt', bytes: txt('x') }], { folder_id: String(folder) }),
      404,
      'documents.access_not_found'
    )
    assertFail(await api(client, 'content', beto.token, { id: 'abc' }), 400, 'documents.invalid_id')
    assertFail(await api(client, 'content', beto.token, { id: 999999 }), 404, 'documents.access_not_found')
    assertFail(await uploadFiles(client, ana.token, []), 400, 'documents.no_files')
    assert.deepEqual(await libraryCounts(), before)
    assert.deepEqual(await storageObjects(), objects)
    // Nothing recorded as opened by beto.
    const recent = (await api(client, 'list', beto.token, { view: 'recent' })).body().data as LibraryListing
    assert.lengthOf(recent.files, 0)
  })

  test('over the quota or over the largest upload: refused with the reason, nothing stored', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    stored(await uploaded(client, ana, [{ name: 'base.txt', bytes: txt('0123456789') }]))
    await quota(ana.id, 15)
    const before = await libraryCounts()
    const objects = await storageObjects()
    const full = await uploaded(client, ana, [
      { name: 'grande.txt', bytes: txt('0123456789') },
      { name: 'cabe.txt', bytes: txt('01234') },
    ])
    assert.deepEqual(
      full.results.map((r) => [r.name, r.status, r.status === 'refused' ? r.message : '']),
      [
        ['grande.txt', 'refused', text('es', 'insufficient_storage')],
        ['cabe.txt', 'stored', ''],
      ]
    )
    assert.deepEqual(full.usage, { used: 15, quota: 15 })
    assert.equal((await libraryCounts()).documents_files, before.documents_files + 1)
    assert.lengthOf(await storageObjects(), objects.length + 1)

    await settings({ maxUploadBytes: 4 })
    const large = await uploaded(client, ana, [{ name: 'pesado.txt', bytes: txt('demasiado') }])
    assert.deepEqual(
      large.results.map((r) => [r.status, r.status === 'refused' ? r.reason : '']),
      [['refused', 'documents.file_too_large']]
    )
    assert.lengthOf(await storageObjects(), objects.length + 1)
  })

  test('two uploads at once cannot both pass the quota: one is stored, the other refused', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    await quota(ana.id, 15)
    const objects = await storageObjects()
    const both = await Promise.all(
      ['uno.txt', 'dos.txt'].map((name) => uploaded(client, ana, [{ name, bytes: txt('0123456789') }]))
    )
    const outcomes = both.map((answer) => answer.results[0].status).sort()
    assert.deepEqual(outcomes, ['refused', 'stored'])
    assert.equal((await api(client, 'usage', ana.token)).body().data.used, 10)
    assert.lengthOf(await storageObjects(), objects.length + 1)
    await assertUsageCounted(assert)
  })

  test('bad names from the client are refused per file; a new version takes exactly one file', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_up', 'teacher')
    const file = stored(await uploaded(client, ana, [{ name: 'a.txt', bytes: txt('a') }]))
    const answer = await uploaded(client, ana, [{ name: 'dos..puntos.txt', bytes: txt('x') }])
    assert.deepEqual(
      answer.results.map((r) => [r.status, r.status === 'refused' ? r.reason : '']),
      [['refused', 'documents.invalid_name']]
    )
    assertFail(
      await uploadFiles(
        client,
        ana.token,
        [
          { name: 'b.txt', bytes: txt('b') },
          { name: 'c.txt', bytes: txt('c') },
        ],
        { new_version_of: String(file.id) }
      ),
      400,
      'documents.one_version'
    )
  })
})
