import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { mailsTo, waitForMail } from '../../../../core/server/tests/helpers/smtp_listener.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import type { FileRow, LibraryListing } from '../../shared/library.js'
import type { SearchAnswer } from '../../shared/operations.js'
import { SHARING_ROUTES } from '../../shared/sharing.js'
import type { ConservationCard } from '../../shared/retention.js'
import {
  api,
  assertFail,
  assertUsageCounted,
  call,
  makeFolder,
  objectExists,
  person,
  text,
  txt,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'
import { op } from './operations_fixtures.js'
import {
  age,
  assignTo,
  card,
  confirm,
  linkOf,
  makeSchedule,
  resetRetention,
  retentionSnapshot,
  runRetentionJob,
  uploaded,
} from './retention_fixtures.js'

/** An owner with a folder under a 2 + 8 year schedule, and documents in it 11 years old. */
async function setUp(client: Client, names: string[], scheduleFields: Record<string, unknown> = {}) {
  const admin = await person(client, 'ret_admin', 'superuser')
  const ana = await person(client, 'ret_ana', 'teacher')
  const schedule = await makeSchedule(client, admin, {
    labels: [{ name: 'Vital', color: '#aa0000' }],
    ...scheduleFields,
  })
  const folder = await makeFolder(client, ana, 'Contratos')
  await assignTo(client, admin, 'folder', folder.id, schedule.id)
  const docs: FileRow[] = []
  for (const name of names) {
    const doc = await uploaded(client, ana, name, folder.id)
    await age(doc.id, 11)
    docs.push(doc)
  }
  return { admin, ana, schedule, folder, docs }
}

/** The mailed link of a document, waiting for its mail. */
async function linkFor(to: Person, name: string) {
  return linkOf(await waitForMail(to.email, (m) => m.text.includes(name)))
}

async function search(client: Client, who: Person, words: string) {
  const response = await op(client, who, 'search', { type_search: 'doc', jsonwhere: JSON.stringify({ text: words }) })
  response.assertStatus(200)
  return (response.body().data as SearchAnswer).documents
}

test.group('documents retention: the daily job, the conservation card and the confirmation', (group) => {
  group.each.setup(async () => {
    await resetRetention()
  })

  test('the job mails each due document once, even run twice at once; a second run mails nothing new', async ({
    client,
    assert,
  }) => {
    const { ana, docs } = await setUp(client, ['uno.txt', 'dos.txt'])
    const young = await uploaded(client, ana, 'reciente.txt', docs[0].folder_id!)
    await age(young.id, 9)
    const sentBefore = mailsTo(ana.email).length

    const [first, second] = await Promise.all([runRetentionJob(), runRetentionJob()])
    assert.equal(first.mailed + second.mailed, 2)
    await linkFor(ana, 'uno.txt')
    await linkFor(ana, 'dos.txt')
    const rows = await db.from('documents_retention_requests').select('file_id', 'user_id', 'code_hash', 'mailed_at')
    assert.sameMembers(
      rows.map((r) => Number(r.file_id)),
      docs.map((d) => d.id)
    )
    for (const row of rows) {
      assert.equal(Number(row.user_id), ana.id)
      assert.match(row.code_hash, /^[0-9a-f]{64}$/)
      assert.isNotNull(row.mailed_at)
    }

    const again = await runRetentionJob()
    assert.deepEqual(again, { due: 2, mailed: 0 })
    // No mail was queued by that run (the job counts every one it queues), nor a code opened.
    assert.equal(mailsTo(ana.email).length, sentBefore + 2)
    assert.lengthOf(await db.from('documents_retention_requests'), 2)
  })

  test('a schedule’s responsible person is mailed instead of the owner; the code is theirs alone', async ({
    client,
    assert,
  }) => {
    const archivist = await person(client, 'ret_archivist', 'supervisor')
    const { ana, docs } = await setUp(client, ['acta.txt'], { responsible_id: String(archivist.id) })
    await runRetentionJob()
    const link = await linkFor(archivist, 'acta.txt')
    assert.equal(link.user, String(archivist.id))
    assert.lengthOf(
      mailsTo(ana.email).filter((m) => m.text.includes('acta.txt')),
      0
    )
    // The owner's id with the archivist's code is refused, as an unknown code is.
    assertFail(await card(client, link.code, ana.id), 404, 'retention_code_unknown')
    assertFail(await confirm(client, link.code, ana.id, 'delete'), 404, 'retention_code_unknown')
    ;(await card(client, link.code, archivist.id)).assertStatus(200)
    assert.isNotNull(await db.from('documents_files').where('id', docs[0].id).first())
  })

  test('GET shows the conservation card and its preview, and changes nothing', async ({ client, assert }) => {
    const { ana, docs } = await setUp(client, ['informe.txt'])
    // The owner's own label on the document is on the card, beside the schedule's.
    const label = await api(client, 'createLabel', ana.token, {}, { name: 'Revisar', color: '#0044aa' })
    const labelId = (label.body().data as { id: number }).id
    ;(await api(client, 'setLabels', ana.token, { id: docs[0].id }, { label_ids: [labelId] })).assertStatus(200)
    await runRetentionJob()
    const { code, user } = await linkFor(ana, 'informe.txt')
    const before = await retentionSnapshot()

    const shown = await card(client, code, user)
    shown.assertStatus(200)
    const data = shown.body().data as ConservationCard
    assert.include(data, { name: 'informe.txt', weight: Buffer.byteLength('bytes of informe.txt'), sub_type: 'other' })
    assert.deepEqual(data.retention, {
      code: '100-12.3',
      serie: 'Contratos',
      subserie: 'Contratos de prestación de servicios',
      doc_type: 'Contrato',
      disposition: 'delete',
    })
    assert.deepEqual(data.labels, [
      { name: 'Vital', color: '#aa0000' },
      { name: 'Revisar', color: '#0044aa' },
    ])
    // No OCR run: zeros.
    assert.deepEqual(data.pages, { skipped: 0, with_ocr: 0, without_ocr: 0, errors: 0 })
    assert.isString(data.last_modification)
    // The preview opens without a session, while its code is open.
    const preview = await client.get(new URL(data.preview_url).pathname)
    preview.assertStatus(200)
    assert.equal(Buffer.from(preview.body() as Buffer).toString(), 'bytes of informe.txt')
    assert.include(preview.header('content-disposition'), 'inline')
    const forged = new URL(data.preview_url).pathname.replace(/\.[^.]+$/, `.${'A'.repeat(43)}`)
    assert.equal((await client.get(forged)).status(), 404)
    // The spec's client sends `case`: tunnelled through POST too.
    const tunnelled = await client.post(`/confirmretention/document/${code}`).form({ case: 'GET', user })
    tunnelled.assertStatus(200)

    assert.equal(await retentionSnapshot(), before)
    const request = await db.from('documents_retention_requests').first()
    assert.isNull(request.used_at)
  })

  test('archive: the document becomes read-only, still listed and found, and the code is spent', async ({
    client,
    assert,
  }) => {
    const { ana, docs, folder } = await setUp(client, ['expediente.txt'])
    await runRetentionJob()
    const { code, user } = await linkFor(ana, 'expediente.txt')
    const archived = await confirm(client, code, user, 'archive')
    archived.assertStatus(200)
    assert.deepEqual(archived.body().data, { option: 'archive', name: 'expediente.txt', redirect: '/' })
    const row = await db.from('documents_files').where('id', docs[0].id).first()
    assert.isNotNull(row.archived_at)
    assert.equal(Number(row.archived_by), ana.id)

    // Listed, marked archived and read-only even for its owner; found by search, marked archived.
    const listing = (await api(client, 'list', ana.token, { view: 'mine' }, { folder: folder.id })).body()
      .data as LibraryListing
    const listed = listing.files.find((f) => f.id === docs[0].id)!
    assert.isString(listed.archived_at)
    assert.equal(listed.permission, 'read')
    const found = await search(client, ana, 'expediente')
    assert.deepEqual(
      found.map((d) => [d.name, d.archived]),
      [['expediente.txt', true]]
    )

    // Every change is refused with the archive's reason, and nothing changes.
    const before = await retentionSnapshot()
    assertFail(await api(client, 'trash', ana.token, {}, { files: [docs[0].id] }), 403, 'archived_read_only')
    assertFail(await api(client, 'trash', ana.token, {}, { folders: [folder.id] }), 409, 'archived_inside')
    const version = await uploadFiles(client, ana.token, [{ name: 'expediente.txt', bytes: txt('v2') }], {
      new_version_of: String(docs[0].id),
    })
    assertFail(version, 403, 'archived_read_only')
    const renamed = await op(client, ana, 'renameDoc', { id_doc: String(docs[0].id), name_doc: 'otro.txt' })
    assert.equal(renamed.status(), 403)
    const shared = await call(client, 'post', SHARING_ROUTES.createLink.path, ana.token, {
      file_id: String(docs[0].id),
      mode: 'direct',
    })
    assertFail(shared, 403, 'archived_read_only')
    assert.equal(await retentionSnapshot(), before)
    // Reading still works.
    ;(await api(client, 'content', ana.token, { id: docs[0].id })).assertStatus(200)

    // The code was used: a second use, or its card, is refused; the job does not mail it again.
    assertFail(await confirm(client, code, user, 'delete'), 409, 'retention_code_used')
    assertFail(await card(client, code, user), 409, 'retention_code_used')
    assert.deepEqual(await runRetentionJob(), { due: 0, mailed: 0 })
    assert.isNotNull(await db.from('documents_files').where('id', docs[0].id).first())
  })

  test('delete: the file, its versions and their stored objects go, with an audit record', async ({
    client,
    assert,
  }) => {
    const { ana, docs, schedule } = await setUp(client, ['borrar.txt', 'queda.txt'])
    // A second version: both objects must go.
    const second = await uploadFiles(client, ana.token, [{ name: 'borrar.txt', bytes: txt('segunda versión') }], {
      new_version_of: String(docs[0].id),
    })
    second.assertStatus(200)
    const keys = (await db.from('documents_versions').where('file_id', docs[0].id).select('storage_key')).map((r) =>
      String(r.storage_key)
    )
    assert.lengthOf(keys, 2)
    // The first version's searchable PDF (as an OCR run leaves it) goes too.
    const ocrKey = keys[0].replace(/[^/]+$/, `${randomUUID()}.pdf`)
    await drive.use().put(ocrKey, '%PDF-1.4 ocr')
    await db.from('documents_versions').where('storage_key', keys[0]).update({ ocr_key: ocrKey, ocr_size: 12 })
    keys.push(ocrKey)
    await runRetentionJob()
    const { code, user } = await linkFor(ana, 'borrar.txt')

    const deleted = await confirm(client, code, user, 'delete')
    deleted.assertStatus(200)
    assert.include(deleted.body().data, { option: 'delete', name: 'borrar.txt' })
    assert.isNull(await db.from('documents_files').where('id', docs[0].id).first())
    assert.lengthOf(await db.from('documents_versions').where('file_id', docs[0].id), 0)
    await waitUntil(async () => {
      for (const key of keys) if (await objectExists(key)) return false
      return true
    })
    await assertUsageCounted(assert)
    // The other document is untouched.
    assert.isNotNull(await db.from('documents_files').where('id', docs[1].id).first())

    const audit = await db.from('audit_logs').where('action', 'documents.retention_delete').first()
    assert.isNotNull(audit)
    assert.equal(Number(audit.actor_id), ana.id)
    assert.equal(audit.subject_type, 'file')
    assert.equal(String(audit.subject_id), String(docs[0].id))
    const data = typeof audit.data === 'string' ? JSON.parse(audit.data) : audit.data
    assert.include(data, {
      name: 'borrar.txt',
      confirmed_by: ana.id,
      schedule_id: schedule.id,
      schedule_code: '100-12.3',
      serie: 'Contratos',
    })
    assert.isString(data.confirmed_at)
    const request = await db.from('documents_retention_requests').where('outcome', 'delete').first()
    assert.isNull(request.file_id)
    assert.equal(request.file_name, 'borrar.txt')

    assertFail(await confirm(client, code, user, 'archive'), 409, 'retention_code_used')
  })

  test('unknown, expired and another user’s codes, a bad option and two racing PUTs', async ({ client, assert }) => {
    const { ana, docs } = await setUp(client, ['carrera.txt'])
    const beto = await person(client, 'ret_beto', 'student')
    await runRetentionJob()
    const { code, user } = await linkFor(ana, 'carrera.txt')
    const before = await retentionSnapshot()

    for (const [bad, who] of [
      ['x'.repeat(43), user],
      [`${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`, user],
      ['corto', user],
      [code, String(beto.id)],
      [code, ''],
      [code, 'ana'],
    ] as const) {
      assertFail(await card(client, bad, who), 404, 'retention_code_unknown')
      assertFail(await confirm(client, bad, who, 'archive'), 404, 'retention_code_unknown')
    }
    assertFail(await confirm(client, code, user, 'shred'), 400, 'retention_bad_option')
    assertFail(await confirm(client, code, user, ''), 400, 'retention_bad_option')
    assert.equal(await retentionSnapshot(), before)

    // Expired: refused, nothing changes; the next run mails a new code, which works.
    await db.from('documents_retention_requests').update({ expires_at: new Date(Date.now() - 1000) })
    const expired = await retentionSnapshot()
    assertFail(await card(client, code, user), 410, 'retention_code_expired')
    assertFail(await confirm(client, code, user, 'archive'), 410, 'retention_code_expired')
    assert.equal(await retentionSnapshot(), expired)
    const mailed = mailsTo(ana.email).length
    assert.deepEqual(await runRetentionJob(), { due: 1, mailed: 1 })
    await waitUntil(async () => mailsTo(ana.email).length > mailed)
    const fresh = linkOf(mailsTo(ana.email).at(-1)!)
    assert.notEqual(fresh.code, code)
    assertFail(await card(client, code, user), 410, 'retention_code_expired')

    // Two PUTs at once: one acts, the other is told the code was used.
    const answers = await Promise.all([
      confirm(client, fresh.code, fresh.user, 'archive'),
      confirm(client, fresh.code, fresh.user, 'delete'),
    ])
    const statuses = answers.map((a) => a.status()).sort()
    assert.deepEqual(statuses, [200, 409])
    const loser = answers.find((a) => a.status() === 409)!
    assert.deepEqual(loser.body(), { status: 'fail', message: text('es', 'retention_code_used') })
    const winner = answers.find((a) => a.status() === 200)!.body().data as { option: string }
    const row = await db.from('documents_files').where('id', docs[0].id).first()
    if (winner.option === 'archive') assert.isNotNull(row.archived_at)
    else assert.isNull(row)
    const used = await db.from('documents_retention_requests').whereNotNull('used_at')
    assert.lengthOf(used, 1)
    assert.equal(used[0].outcome, winner.option)
  })

  test('documents:retention --dry-run lists what is due and mails nothing; without it, it mails', async ({
    client,
    assert,
  }) => {
    const { ana } = await setUp(client, ['lista.txt'])
    const { platform } = (await import('../../../../core/server/app/services/platform.js')) as {
      platform: () => { plugins: { commands(): { name: string; command: any; ctx: any }[] } }
    }
    const found = platform()
      .plugins.commands()
      .find((c) => c.name === 'documents:retention')!
    const lines: string[] = []
    const log = console.log
    console.log = (line: string) => lines.push(String(line))
    try {
      await found.command.run([], { dryRun: true }, found.ctx)
    } finally {
      console.log = log
    }
    assert.lengthOf(lines, 2)
    assert.match(
      lines[0],
      /lista\.txt — schedule 100-12\.3 \(folder \d+\) — ret_ana Test \(user \d+\) — due since \d{4}-/
    )
    assert.equal(lines[1], '1 document(s) due; dry run: nothing mailed')
    assert.lengthOf(await db.from('documents_retention_requests'), 0)

    const mailed = mailsTo(ana.email).length
    console.log = (line: string) => lines.push(String(line))
    try {
      await found.command.run([], {}, found.ctx)
    } finally {
      console.log = log
    }
    assert.equal(lines.at(-1), '1 document(s) due; 1 confirmation(s) mailed')
    await waitUntil(async () => mailsTo(ana.email).length > mailed)
    assert.lengthOf(await db.from('documents_retention_requests'), 1)
  })
})
