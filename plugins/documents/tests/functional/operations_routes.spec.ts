import { test } from '@japa/runner'
import { ApiRequest } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { PDFDocument } from 'pdf-lib'
import type { CopyAnswer, DocumentInfo, FiledAnswer, FolderInfo } from '../../shared/operations.js'
import { assertUsageCounted, pdf, person, quota, resetLibrary, storageObjects, txt } from './library_fixtures.js'
import { formFile } from '../../../../core/server/tests/helpers/uploads.js'
import { file as storedFile } from './sharing_fixtures.js'
import { assertCode, fileRow, makeFolder, objectBytes, op, share, snapshot, upload } from './operations_fixtures.js'

const bytesOf = (response: { body(): unknown }) => Buffer.from(response.body() as Buffer)

// A zip answer is read as bytes (superagent parses only the types it knows).
ApiRequest.addParser('application/zip', (res, done) => {
  const chunks: Buffer[] = []
  res.on('data', (chunk: Buffer) => chunks.push(chunk))
  res.on('end', () => done(null, Buffer.concat(chunks)))
})

test.group('documents operations: rename, copy and cut, info, merge and zip', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('rename_doc keeps the extension and refuses a taken name, a path, a foreign or unknown id', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_op', 'teacher')
    const bruno = await person(client, 'bruno_op', 'student')
    const folder = await makeFolder(client, ana, 'Actas')
    const acta = await upload(client, ana, 'acta.pdf', await pdf(1), folder)
    await upload(client, ana, 'otra.pdf', await pdf(1), folder)

    const renamed = await op(client, ana, 'renameDoc', {
      id_doc: String(acta.id),
      name_doc: 'Acta final',
      creator_id: '1',
    })
    renamed.assertStatus(200)
    assert.equal(renamed.body().data.name, 'Acta final.pdf')
    assert.equal((await fileRow(acta.id)).name, 'Acta final.pdf')

    const before = await snapshot()
    assertCode(await op(client, ana, 'renameDoc', { id_doc: String(acta.id), name_doc: 'OTRA.pdf' }), 409, 'no_rename')
    assertCode(
      await op(client, ana, 'renameDoc', { id_doc: String(acta.id), name_doc: '../../etc/passwd' }),
      400,
      'no_rename'
    )
    assertCode(await op(client, ana, 'renameDoc', { id_doc: String(acta.id), name_doc: 'a\\b' }), 400, 'no_rename')
    assertCode(
      await op(client, ana, 'renameDoc', { id_doc: String(acta.id), name_doc: 'x'.repeat(300) }),
      400,
      'no_rename'
    )
    assertCode(await op(client, ana, 'renameDoc', { id_doc: 'abc', name_doc: 'b' }), 400, 'no_rename')
    assertCode(await op(client, bruno, 'renameDoc', { id_doc: String(acta.id), name_doc: 'mio' }), 404, 'no_rename')
    assertCode(await op(client, ana, 'renameDoc', { id_doc: '999999', name_doc: 'b' }), 404, 'no_rename')
    assert.equal(await snapshot(), before)

    // A reader may not rename; a holder of 'all' may.
    await share('file', acta.id, bruno.id, ana.id, 'read')
    assertCode(await op(client, bruno, 'renameDoc', { id_doc: String(acta.id), name_doc: 'mio' }), 403, 'no_rename')
    const anonymous = await op(client, null, 'renameDoc', { id_doc: String(acta.id), name_doc: 'x' })
    anonymous.assertStatus(401)
  })

  test('rename_folder: unique among siblings outside the trash; foreign folders are not found', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_rf', 'teacher')
    const bruno = await person(client, 'bruno_rf', 'student')
    const a = await makeFolder(client, ana, 'Uno')
    await makeFolder(client, ana, 'Dos')
    const renamed = await op(client, ana, 'renameFolder', { id_folder: String(a), name_folder: 'Año 2026' })
    renamed.assertStatus(200)
    assert.equal(renamed.body().data.name, 'Año 2026')
    const before = await snapshot()
    assertCode(await op(client, ana, 'renameFolder', { id_folder: String(a), name_folder: 'dos' }), 409, 'no_rename')
    assertCode(await op(client, ana, 'renameFolder', { id_folder: String(a), name_folder: '..' }), 400, 'no_rename')
    assertCode(await op(client, bruno, 'renameFolder', { id_folder: String(a), name_folder: 'Mía' }), 404, 'no_rename')
    assert.equal(await snapshot(), before)
  })

  test("copy_doc copy duplicates files and folder trees as the caller's own, with their own stored objects", async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_cp', 'teacher')
    const bruno = await person(client, 'bruno_cp', 'student')
    const a = await makeFolder(client, ana, 'A')
    const b = await makeFolder(client, ana, 'B', a)
    const inB = await upload(client, ana, 'dentro.txt', txt('contenido de dentro'), b)
    const loose = await upload(client, ana, 'suelto.txt', txt('suelto'))
    const brunos = await upload(client, bruno, 'suyo.txt', txt('suyo'))

    const [indexId] = await db.table('documents_indexes').insert({
      name: 'Expedientes',
      columns: JSON.stringify([{ name: 'expediente', type: 'text' }]),
      owner_id: ana.id,
      created_at: new Date(),
    })
    await db
      .table('documents_file_metadata')
      .insert({ file_id: loose.id, index_id: indexId, values: '{"expediente":"B-2"}' })

    const copied = await op(client, ana, 'copy', {
      type: 'copy',
      folder_dest: String(a),
      id_doc: String(loose.id),
      id_creator: '1',
    })
    copied.assertStatus(200)
    const answer = copied.body().data as CopyAnswer
    assert.lengthOf(answer.files, 1)
    const copy = await fileRow(answer.files[0]!)
    const original = await fileRow(loose.id)
    assert.include(copy, { name: 'suelto.txt', folder_id: a, owner_id: ana.id })
    assert.notEqual(copy.storage_key, original.storage_key)
    assert.equal((await objectBytes(copy.storage_key)).toString(), 'suelto')
    const copiedMetadata = await db.from('documents_file_metadata').where('file_id', copy.id).first()
    assert.deepEqual(JSON.parse(copiedMetadata.values), { expediente: 'B-2' })

    // A folder copied next to itself: "A (2)" with B and its file inside.
    const tree = await op(client, ana, 'copy', { type: 'copy', folder_dest: '', id_folder: `[${a}]` })
    tree.assertStatus(200)
    const newA = (tree.body().data as CopyAnswer).folders[0]!
    assert.equal((await db.from('documents_folders').where('id', newA).first()).name, 'A (2)')
    const newB = await db.from('documents_folders').where('parent_id', newA).where('name', 'B').first()
    const newInB = await db.from('documents_files').where('folder_id', newB.id).first()
    assert.equal(newInB.name, 'dentro.txt')
    assert.notEqual(newInB.storage_key, (await fileRow(inB.id)).storage_key)
    assert.equal((await objectBytes(newInB.storage_key)).toString(), 'contenido de dentro')

    // Bruno reaches none of it; a copy of a shared file is his own, in his root.
    const before = await snapshot()
    assertCode(
      await op(client, bruno, 'copy', { type: 'copy', folder_dest: '', id_doc: String(loose.id) }),
      404,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, bruno, 'copy', { type: 'copy', folder_dest: String(a), id_doc: String(brunos.id) }),
      404,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, ana, 'copy', { type: 'move', folder_dest: '', id_doc: String(loose.id) }),
      400,
      'no_copy_or_cut'
    )
    assertCode(await op(client, ana, 'copy', { type: 'copy', folder_dest: '', id_doc: '' }), 400, 'no_copy_or_cut')
    assertCode(
      await op(client, ana, 'copy', { type: 'copy', folder_dest: '', id_doc: '["1 OR 1=1"]' }),
      400,
      'no_copy_or_cut'
    )
    assert.equal(await snapshot(), before)
    // Past the caller's quota: insufficient storage, nothing stored.
    const objects = await storageObjects()
    await quota(ana.id, 1)
    assertCode(
      await op(client, ana, 'copy', { type: 'copy', folder_dest: '', id_doc: String(loose.id) }),
      413,
      'no_copy_or_cut'
    )
    assert.deepEqual(await storageObjects(), objects)
    assert.equal(await snapshot(), before)
    await share('file', loose.id, bruno.id, ana.id, 'read')
    const his = await op(client, bruno, 'copy', {
      type: 'copy',
      folder_dest: '',
      id_doc: String(loose.id),
      id_creator: '1',
    })
    his.assertStatus(200)
    assert.include(await fileRow((his.body().data as CopyAnswer).files[0]!), { owner_id: bruno.id, folder_id: null })
    await assertUsageCounted(assert)
  })

  test("copy_doc cut moves; never into itself or below itself, never into another owner's tree", async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_ct', 'teacher')
    const bruno = await person(client, 'bruno_ct', 'student')
    const a = await makeFolder(client, ana, 'A')
    const b = await makeFolder(client, ana, 'B', a)
    const c = await makeFolder(client, ana, 'C', b)
    const loose = await upload(client, ana, 'suelto.txt', txt('x'))
    const brunos = await makeFolder(client, bruno, 'De Bruno')

    const before = await snapshot()
    assertCode(
      await op(client, ana, 'copy', { type: 'cut', folder_dest: String(a), id_folder: String(a) }),
      409,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, ana, 'copy', { type: 'cut', folder_dest: String(c), id_folder: String(a) }),
      409,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, ana, 'copy', { type: 'copy', folder_dest: String(c), id_folder: String(a) }),
      409,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, ana, 'copy', { type: 'cut', folder_dest: String(brunos), id_doc: String(loose.id) }),
      404,
      'no_copy_or_cut'
    )
    await share('folder', brunos, ana.id, bruno.id, 'all')
    assertCode(
      await op(client, ana, 'copy', { type: 'cut', folder_dest: String(brunos), id_doc: String(loose.id) }),
      409,
      'no_copy_or_cut'
    )
    assertCode(
      await op(client, bruno, 'copy', { type: 'cut', folder_dest: '', id_folder: String(c) }),
      404,
      'no_copy_or_cut'
    )
    assert.equal(await snapshot(), before)

    const moved = await op(client, ana, 'copy', { type: 'cut', folder_dest: String(c), id_doc: String(loose.id) })
    moved.assertStatus(200)
    assert.equal((await fileRow(loose.id)).folder_id, c)
    const up = await op(client, ana, 'copy', { type: 'cut', folder_dest: '', id_folder: String(c) })
    up.assertStatus(200)
    assert.isNull((await db.from('documents_folders').where('id', c).first()).parent_id)
  })

  test('info_doc and info_folder: facts, path, owner, labels, shares; a stranger gets no_search', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_in', 'teacher')
    const bruno = await person(client, 'bruno_in', 'student')
    const a = await makeFolder(client, ana, 'Proyectos')
    const b = await makeFolder(client, ana, '2026', a)
    const plano = await upload(client, ana, 'plano.pdf', await pdf(3), b)
    await upload(client, ana, 'nota.txt', txt('hola'), a)
    const [label] = await db.table('documents_labels').insert({
      owner_id: ana.id,
      name: 'Urgente',
      color: '#ff0000',
      created_at: new Date(),
    })
    await db.table('documents_file_labels').insert({ file_id: plano.id, label_id: label })
    await share('file', plano.id, bruno.id, ana.id, 'read')

    const doc = (await op(client, ana, 'infoDoc', { id_doc: String(plano.id) })).body().data as DocumentInfo
    assert.include(doc, { name: 'plano.pdf', pages: 3, versions: 1, shares: 1, permission: 'all' })
    assert.deepEqual(doc.path, ['Proyectos', '2026'])
    assert.deepEqual(doc.owner, { id: ana.id, name: doc.owner!.name })
    assert.deepEqual(doc.labels, [{ name: 'Urgente', color: '#ff0000' }])
    const asReader = (await op(client, bruno, 'infoDoc', { id_doc: String(plano.id) })).body().data as DocumentInfo
    assert.equal(asReader.permission, 'read')

    const folder = (await op(client, ana, 'infoFolder', { id_folder: String(a) })).body().data as FolderInfo
    assert.include(folder, { name: 'Proyectos', files: 2, folders: 1, pages: 3, shares: 0 })
    assert.equal(folder.size, plano.size + 4)
    assertCode(await op(client, bruno, 'infoFolder', { id_folder: String(a) }), 404, 'no_search')
    assertCode(await op(client, ana, 'infoDoc', { id_doc: '-1' }), 400, 'no_search')
  })

  test('merge_doc merge_docs joins PDFs: sent as a file, or filed into a folder with doc_subido_success', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_mg', 'teacher')
    const folder = await makeFolder(client, ana, 'Salida')
    const one = await upload(client, ana, 'uno.pdf', await pdf(2))
    const two = await upload(client, ana, 'dos.pdf', await pdf(3))

    const sent = await op(client, ana, 'merge', {
      rutes_merge: JSON.stringify([one.id, two.id]),
      type_merge: 'merge_docs',
      name_doc: 'junto',
      temporal: 'true',
      creator_id: '1',
    })
    sent.assertStatus(200)
    assert.match(sent.header('content-disposition') ?? '', /attachment/)
    assert.equal((await PDFDocument.load(bytesOf(sent))).getPageCount(), 5)

    const filed = await op(client, ana, 'merge', {
      rutes_merge: JSON.stringify([two.id, one.id]),
      type_merge: 'merge_docs',
      name_doc: 'expediente.pdf',
      save_doc: 'true',
      folder_id: String(folder),
      creator_id: '1',
    })
    filed.assertStatus(200)
    const answer = filed.body().data as FiledAnswer
    assert.equal(answer.code, 'doc_subido_success')
    assert.include(answer.file, { name: 'expediente.pdf', pages: 5, folder_id: folder, owner_id: ana.id })
    const row = await fileRow(answer.file.id)
    assert.equal((await PDFDocument.load(await objectBytes(row.storage_key))).getPageCount(), 5)
    await assertUsageCounted(assert)
  })

  test('merge_doc refuses a non-PDF, a foreign file, too many files and an unknown type; nothing stored', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_mx', 'teacher')
    const bruno = await person(client, 'bruno_mx', 'student')
    const one = await upload(client, ana, 'uno.pdf', await pdf(1))
    const note = await upload(client, ana, 'nota.txt', txt('no soy un pdf'))
    const his = await upload(client, bruno, 'suyo.pdf', await pdf(1))
    const broken = await storedFile(ana.id, 'roto.pdf', { bytes: 'no es un PDF', mime: 'application/pdf' })
    const before = await snapshot()
    const merge = (ids: unknown, extra: Record<string, string> = {}) =>
      op(client, ana, 'merge', {
        rutes_merge: JSON.stringify(ids),
        type_merge: 'merge_docs',
        save_doc: 'true',
        ...extra,
      })
    assertCode(await merge([one.id, note.id]), 400, 'no_copy_or_cut')
    // Said to be a PDF, but pdf-lib cannot read it (the worker's refusal).
    assertCode(await merge([one.id, broken.id]), 400, 'no_copy_or_cut')
    assertCode(await merge([one.id, his.id]), 404, 'no_copy_or_cut')
    assertCode(await merge(Array.from({ length: 51 }, (_, i) => i + 1)), 413, 'no_copy_or_cut')
    assertCode(await merge([]), 400, 'no_copy_or_cut')
    assertCode(await merge([one.id], { type_merge: 'rar_docs' }), 400, 'no_copy_or_cut')
    assertCode(await merge([one.id], { name_doc: '../fuera' }), 400, 'no_copy_or_cut')
    assertCode(await merge([one.id], { folder_id: '999999' }), 404, 'no_copy_or_cut')
    assertCode(
      await merge(
        Array.from({ length: 1001 }, (_, i) => i + 1),
        { type_merge: 'zip_docs' }
      ),
      413,
      'no_copy_or_cut'
    )
    // Past the bytes a merge may join (the size recorded for the file says so): refused before reading.
    const objects = await storageObjects()
    await db
      .from('documents_files')
      .where('id', one.id)
      .update({ size: 200 * 1024 * 1024 })
    assertCode(await merge([one.id]), 413, 'no_copy_or_cut')
    await db.from('documents_files').where('id', one.id).update({ size: one.size })
    assert.equal(await snapshot(), before)
    assert.deepEqual(await storageObjects(), objects)
  })

  test("merge_doc files a case's form files with library ones; someone else's form file is not found", async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_cf', 'teacher')
    const beto = await person(client, 'beto_cf', 'teacher')
    const folder = await makeFolder(client, ana, 'Expediente')
    const note = await upload(client, ana, 'nota.txt', txt('uno'))
    const scan = await formFile(ana.id, 'soporte.pdf', await pdf(2), { mime: 'application/pdf' })
    const generated = await formFile(ana.id, 'certificado.pdf', await pdf(1), { mime: 'application/pdf' })

    // A zip of a library file and a form's upload, filed into a folder.
    const zipped = await op(client, ana, 'merge', {
      rutes_merge: JSON.stringify([note.id, { path: scan }]),
      type_merge: 'zip_docs',
      name_doc: 'expediente',
      save_doc: 'true',
      folder_id: String(folder),
    })
    zipped.assertStatus(200)
    const filed = (zipped.body().data as FiledAnswer).file
    const row = await fileRow(filed.id)
    assert.equal(Number(row.folder_id), folder)
    const bytes = await objectBytes(row.storage_key)
    assert.include(bytes.toString('latin1'), 'nota.txt')
    assert.include(bytes.toString('latin1'), 'soporte.pdf')

    // The form's PDFs joined into one, filed: its pages are both files' pages.
    const merged = await op(client, ana, 'merge', {
      rutes_merge: `${scan},${generated}`,
      type_merge: 'merge_docs',
      name_doc: 'radicado',
      save_doc: 'true',
    })
    merged.assertStatus(200)
    assert.include((merged.body().data as FiledAnswer).file, { name: 'radicado.pdf', pages: 3 })

    // Beto may not read Ana's staged upload: not found, and nothing stored.
    const before = await snapshot()
    const refused = await op(client, beto, 'merge', { rutes_merge: scan, type_merge: 'zip_docs', save_doc: 'true' })
    refused.assertStatus(404)
    assert.equal(refused.body().status, 'fail')
    assert.equal(await snapshot(), before)
    await assertUsageCounted(assert)
  })

  test('merge_doc zip_docs streams a zip of the files, or files it', async ({ client, assert }) => {
    const ana = await person(client, 'ana_zp', 'teacher')
    const a = await upload(client, ana, 'nota.txt', txt('uno'))
    const b = await upload(client, ana, 'plano.pdf', await pdf(1))
    const zip = await op(client, ana, 'merge', {
      rutes_merge: `${a.id},${b.id}`,
      type_merge: 'zip_docs',
      name_doc: 'todo',
    })
    zip.assertStatus(200)
    assert.match(zip.header('content-type') ?? '', /application\/zip/)
    const bytes = bytesOf(zip)
    assert.equal(bytes.subarray(0, 2).toString(), 'PK')
    assert.include(bytes.toString('latin1'), 'nota.txt')
    assert.include(bytes.toString('latin1'), 'plano.pdf')

    const filed = await op(client, ana, 'merge', { rutes_merge: `[${a.id}]`, type_merge: 'zip_docs', save_doc: 'true' })
    filed.assertStatus(200)
    assert.include((filed.body().data as FiledAnswer).file, { name: 'documentos.zip', extension: 'zip' })
    await assertUsageCounted(assert)
  })
})
