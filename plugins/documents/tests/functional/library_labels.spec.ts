import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { CommentRow, FileRow, LabelRow, LibraryListing, UploadAnswer } from '../../shared/library.js'
import {
  api,
  assertFail,
  libraryCounts,
  person,
  resetLibrary,
  indexed,
  searchRow,
  txt,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'

async function fileOf(client: Client, who: Person, name: string): Promise<FileRow> {
  const result = ((await uploadFiles(client, who.token, [{ name, bytes: txt(name) }])).body().data as UploadAnswer)
    .results[0]
  if (result.status !== 'stored') throw new Error(JSON.stringify(result))
  return result.file
}

async function label(client: Client, who: Person, name: string, color = '#336699'): Promise<LabelRow> {
  const response = await api(client, 'createLabel', who.token, {}, { name, color, description: `sobre ${name}` })
  response.assertStatus(200)
  return response.body().data as LabelRow
}

test.group('documents library: labels and comments', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('the same label made six times at once: one is made, the others are told the name is taken', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_race', 'teacher')
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api(client, 'createLabel', ana.token, {}, { name: 'Urgente', color: '#ff0000' }))
    )
    const made = answers.filter((answer) => answer.status() === 200)
    assert.lengthOf(made, 1)
    for (const answer of answers.filter((a) => a.status() !== 200)) assertFail(answer, 409, 'label_name_taken')
    assert.lengthOf(await db.from('documents_labels').where('owner_id', ana.id), 1)
  })

  test('my labels: made, changed, set on a file (listing and search row follow), deleted', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_lab', 'teacher')
    const file = await fileOf(client, ana, 'contrato.txt')
    const urgent = await label(client, ana, 'Urgente', '#FF0000')
    assert.deepEqual(urgent, { id: urgent.id, name: 'Urgente', description: 'sobre Urgente', color: '#ff0000' })
    const legal = await label(client, ana, 'Legal')
    const set = await api(client, 'setLabels', ana.token, { id: file.id }, { label_ids: [urgent.id, legal.id] })
    set.assertStatus(200)
    assert.deepEqual(
      (set.body().data as FileRow).labels.map((l) => l.name),
      ['Legal', 'Urgente']
    )
    assert.deepEqual(await searchRow(file.id), indexed('contrato.txt', 'Legal Urgente'))
    const renamed = await api(
      client,
      'updateLabel',
      ana.token,
      { id: legal.id },
      { name: 'Jurídico', color: '#00aa00' }
    )
    renamed.assertStatus(200)
    assert.deepEqual(await searchRow(file.id), indexed('contrato.txt', 'Jurídico Urgente'))
    const listing = (await api(client, 'list', ana.token, { view: 'mine' })).body().data as LibraryListing
    assert.deepEqual(
      listing.files[0].labels.map((l) => [l.name, l.color]),
      [
        ['Jurídico', '#00aa00'],
        ['Urgente', '#ff0000'],
      ]
    )
    ;(await api(client, 'deleteLabel', ana.token, { id: urgent.id })).assertStatus(200)
    assert.deepEqual(await searchRow(file.id), indexed('contrato.txt', 'Jurídico'))
    const mine = (await api(client, 'labels', ana.token)).body().data as LabelRow[]
    assert.deepEqual(
      mine.map((l) => l.name),
      ['Jurídico']
    )
  })

  test('bad labels and someone else’s labels or files are refused, nothing changed', async ({ client, assert }) => {
    const ana = await person(client, 'ana_lab', 'teacher')
    const beto = await person(client, 'beto_lab', 'student')
    const file = await fileOf(client, ana, 'privado.txt')
    const anaLabel = await label(client, ana, 'Mía')
    const betoFile = await fileOf(client, beto, 'de-beto.txt')
    const before = await libraryCounts()
    const bad = (fields: Record<string, string>, key: string) =>
      api(client, 'createLabel', ana.token, {}, fields).then((r) => assertFail(r, 400, key))
    await bad({ name: '', color: '#123456' }, 'documents.label_invalid_name')
    await bad({ name: 'x'.repeat(61), color: '#123456' }, 'documents.label_invalid_name')
    await bad({ name: 'Roja', color: 'red' }, 'documents.label_invalid_color')
    await bad({ name: 'Roja', color: '#12345g' }, 'documents.label_invalid_color')
    await bad({ name: 'Roja', color: '#123456', description: 'd'.repeat(256) }, 'documents.label_invalid_description')
    assertFail(
      await api(client, 'createLabel', ana.token, {}, { name: 'Mía', color: '#000000' }),
      409,
      'documents.label_name_taken'
    )
    // Beto cannot use, change or delete ana's label, nor label ana's file.
    assertFail(
      await api(client, 'setLabels', beto.token, { id: betoFile.id }, { label_ids: [anaLabel.id] }),
      404,
      'documents.label_not_found'
    )
    assertFail(
      await api(client, 'updateLabel', beto.token, { id: anaLabel.id }, { name: 'Robada', color: '#000000' }),
      404,
      'documents.label_not_found'
    )
    assertFail(await api(client, 'deleteLabel', beto.token, { id: anaLabel.id }), 404, 'documents.label_not_found')
    assertFail(
      await api(client, 'setLabels', beto.token, { id: file.id }, { label_ids: [] }),
      404,
      'documents.access_not_found'
    )
    assertFail(
      await api(client, 'addComment', beto.token, { id: file.id }, { text: 'hola' }),
      404,
      'documents.access_not_found'
    )
    assert.deepEqual(await libraryCounts(), before)
    assert.equal((await db.from('documents_labels').where('id', anaLabel.id).first())?.name, 'Mía')
  })

  test('comments: added by readers, the last 5 shown oldest first with their authors; an empty one refused', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_lab', 'teacher')
    const beto = await person(client, 'beto_lab', 'student')
    const file = await fileOf(client, ana, 'borrador.txt')
    await db.table('documents_shares').insert({
      subject_type: 'file',
      subject_id: file.id,
      grantee_type: 'user',
      grantee_id: beto.id,
      permission: 'read',
      created_by: ana.id,
      created_at: new Date(),
    })
    for (let i = 1; i <= 6; i++) {
      const who = i % 2 ? ana : beto
      ;(await api(client, 'addComment', who.token, { id: file.id }, { text: `comentario ${i}` })).assertStatus(200)
    }
    const shown = (await api(client, 'comments', beto.token, { id: file.id })).body().data as CommentRow[]
    assert.deepEqual(
      shown.map((c) => [c.text, c.author?.name]),
      [
        ['comentario 2', 'beto_lab Test'],
        ['comentario 3', 'ana_lab Test'],
        ['comentario 4', 'beto_lab Test'],
        ['comentario 5', 'ana_lab Test'],
        ['comentario 6', 'beto_lab Test'],
      ]
    )
    const before = await libraryCounts()
    assertFail(
      await api(client, 'addComment', beto.token, { id: file.id }, { text: '   ' }),
      400,
      'documents.comment_empty'
    )
    assertFail(
      await api(client, 'addComment', beto.token, { id: file.id }, { text: 'x'.repeat(2001) }),
      400,
      'documents.comment_too_long'
    )
    assert.deepEqual(await libraryCounts(), before)
  })
})
