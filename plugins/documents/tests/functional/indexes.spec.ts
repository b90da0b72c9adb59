import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  INDEX_ROUTES,
  indexPath,
  type FileIndexValues,
  type IndexRow,
  type IndexRouteName,
} from '../../shared/indexes.js'
import type { SearchAnswer } from '../../shared/operations.js'
import {
  assertFail,
  call,
  fail,
  person,
  resetLibrary,
  text,
  txt,
  type Client,
  type Person,
} from './library_fixtures.js'
import { op, share, upload } from './operations_fixtures.js'

function api(
  client: Client,
  who: Person,
  name: IndexRouteName,
  params: Record<string, string | number> = {},
  fields: Record<string, unknown> = {}
) {
  const method = INDEX_ROUTES[name].method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
  return call(client, method, indexPath(name, params), who.token, fields)
}

const EXPEDIENTE = [
  { name: 'expediente', type: 'text' },
  { name: 'folios', type: 'number' },
  { name: 'radicado', type: 'date' },
  { name: 'urgente', type: 'boolean' },
]

async function makeIndex(client: Client, who: Person, name: string, columns: unknown, parent?: number) {
  const response = await api(
    client,
    who,
    'create',
    {},
    {
      name,
      columns,
      ...(parent ? { parent_id: parent } : {}),
    }
  )
  response.assertStatus(200)
  return response.body().data as IndexRow
}

async function fileUnder(client: Client, who: Person, fileId: number, indexId: number, values: object) {
  return api(client, who, 'file', { id: fileId, index: indexId }, { values })
}

/** POST /inside/forms/links_modules with type select_indexing, as a form's lookup sends it. */
function selectIndexing(client: Client, who: Person, fields: Record<string, unknown>) {
  return call(client, 'post', '/inside/forms/links_modules', who.token, { type: 'select_indexing', ...fields })
}

async function tables() {
  const out: Record<string, unknown> = {}
  for (const table of ['documents_indexes', 'documents_file_metadata']) {
    out[table] = await db
      .from(table)
      .select('*')
      .orderBy(table === 'documents_indexes' ? 'id' : 'file_id')
  }
  return JSON.stringify(out)
}

test.group('documents indexes: typed metadata and select_indexing', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('an index and a sub-index are made, listed, renamed and deleted by their creator only', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_ix', 'teacher')
    const beto = await person(client, 'beto_ix', 'student')
    const top = await makeIndex(client, ana, 'Expedientes', EXPEDIENTE)
    assert.deepEqual(top.columns, EXPEDIENTE)
    const sub = await makeIndex(client, ana, 'Contratos', [{ name: 'contratista', type: 'text' }], top.id)
    assert.equal(sub.parent_id, top.id)
    const listed = (await api(client, beto, 'list')).body().data as IndexRow[]
    assert.deepEqual(
      listed.map((i) => [i.name, i.parent_id]),
      [
        ['Expedientes', null],
        ['Contratos', top.id],
      ]
    )

    const before = await tables()
    assertFail(
      await api(client, beto, 'update', { id: top.id }, { name: 'Mío', columns: EXPEDIENTE }),
      403,
      'index_not_yours'
    )
    assertFail(await api(client, beto, 'remove', { id: top.id }), 403, 'index_not_yours')
    assertFail(
      await api(client, ana, 'create', {}, { name: 'Expedientes', columns: EXPEDIENTE }),
      409,
      'index_name_taken'
    )
    assertFail(
      await api(client, ana, 'create', {}, { name: 'Nieto', columns: EXPEDIENTE, parent_id: sub.id }),
      400,
      'index_too_deep'
    )
    for (const columns of [
      [],
      'no es json',
      [{ name: 'a', type: 'color' }],
      [{ name: 'a"b', type: 'text' }],
      [{ name: '1a', type: 'text' }],
      [
        { name: 'a', type: 'text' },
        { name: 'A', type: 'number' },
      ],
      Array.from({ length: 31 }, (_, i) => ({ name: `c${i}`, type: 'text' })),
    ]) {
      assertFail(await api(client, ana, 'create', {}, { name: 'Otro', columns }), 400, 'index_invalid_columns')
    }
    assertFail(await api(client, ana, 'create', {}, { name: ' ', columns: EXPEDIENTE }), 400, 'index_invalid_name')
    assertFail(
      await api(client, ana, 'update', { id: 999999 }, { name: 'X', columns: EXPEDIENTE }),
      404,
      'index_not_found'
    )
    assert.equal(await tables(), before, 'refusals change nothing')

    const renamed = await api(client, ana, 'update', { id: top.id }, { name: 'Expedientes 2026', columns: EXPEDIENTE })
    assert.equal((renamed.body().data as IndexRow).name, 'Expedientes 2026')
    ;(await api(client, ana, 'remove', { id: top.id })).assertStatus(200)
    assert.lengthOf(await db.from('documents_indexes'), 0, 'the sub-index went with it')
  })

  test('a name is unique among its siblings, also when requests race; the database keeps it so', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_ix', 'teacher')
    const beto = await person(client, 'beto_ix', 'student')
    const columns = [{ name: 'expediente', type: 'text' }]
    const taken = <R extends { status(): number }>(responses: R[]) => responses.filter((r) => r.status() !== 200)

    // Six requests for one top-level name at once: one index is made, the others are told the name is taken.
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api(client, i % 2 ? beto : ana, 'create', {}, { name: 'Contratos', columns }))
    )
    assert.lengthOf(taken(made), 5)
    for (const response of taken(made)) assertFail(response, 409, 'index_name_taken')
    assert.lengthOf(await db.from('documents_indexes').where('name', 'Contratos'), 1)
    const top = made.find((r) => r.status() === 200)!.body().data as IndexRow

    // The same name under another parent, or under one as at the top level, is another sibling's.
    const actas = await makeIndex(client, ana, 'Actas', columns)
    await makeIndex(client, ana, 'Contratos', columns, top.id)
    await makeIndex(client, ana, 'Contratos', columns, actas.id)
    const subs = await Promise.all(
      Array.from({ length: 4 }, () => api(client, ana, 'create', {}, { name: 'Anexos', columns, parent_id: top.id }))
    )
    assert.lengthOf(taken(subs), 3)
    for (const response of taken(subs)) assertFail(response, 409, 'index_name_taken')

    // Two indexes renamed to one name at once: one keeps it.
    const informes = await makeIndex(client, ana, 'Informes', columns)
    const renamed = await Promise.all(
      [actas, informes].map((index) => api(client, ana, 'update', { id: index.id }, { name: 'Archivo', columns }))
    )
    assert.lengthOf(taken(renamed), 1)
    assertFail(taken(renamed)[0]!, 409, 'index_name_taken')
    assert.lengthOf(await db.from('documents_indexes').where('name', 'Archivo'), 1)

    // The database refuses a repeat itself, at the top level (no parent) as under one.
    const row = { columns: '[]', owner_id: ana.id, created_at: new Date() }
    await assert.rejects(() => db.table('documents_indexes').insert({ ...row, name: 'Contratos', parent_id: null }))
    await assert.rejects(() => db.table('documents_indexes').insert({ ...row, name: 'Anexos', parent_id: top.id }))

    // Each caller is told which indexes they may change: their own (a superuser: all).
    const root = await person(client, 'root_ix', 'superuser')
    const mine = (rows: IndexRow[]) => rows.filter((i) => i.can_change).map((i) => i.id)
    const list = async (who: typeof ana) => (await api(client, who, 'list')).body().data as IndexRow[]
    // The race's winner may be Beto's request (he sent half of them): his, and only his, are his to change.
    const owned = async (who: typeof ana) =>
      (await db.from('documents_indexes').where('owner_id', who.id)).map((row) => Number(row.id))
    assert.sameMembers(mine(await list(beto)), await owned(beto))
    assert.sameMembers(mine(await list(ana)), await owned(ana))
    const all = (await list(root)).map((i) => i.id)
    assert.sameMembers(mine(await list(root)), all)
  })

  test('a file is filed with typed values; bad values and weaker access are refused; search finds the values', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_fv', 'teacher')
    const beto = await person(client, 'beto_fv', 'student')
    const carla = await person(client, 'carla_fv', 'student')
    const index = await makeIndex(client, ana, 'Expedientes', EXPEDIENTE)
    const doc = await upload(client, ana, 'Contrato.txt', txt('c'))
    await share('file', doc.id, beto.id, ana.id, 'read')

    const filed = await fileUnder(client, ana, doc.id, index.id, {
      expediente: 'EXP-17',
      folios: '12',
      radicado: '2026-03-01',
      urgente: true,
    })
    filed.assertStatus(200)
    assert.deepEqual((filed.body().data as FileIndexValues).values, {
      expediente: 'EXP-17',
      folios: 12,
      radicado: '2026-03-01',
      urgente: true,
    })

    const before = await tables()
    for (const [values, key, column] of [
      [{ folios: 'doce' }, 'index_invalid_value', 'folios'],
      [{ radicado: '2026-02-30' }, 'index_invalid_value', 'radicado'],
      [{ urgente: 'quizá' }, 'index_invalid_value', 'urgente'],
      [{ expediente: 'x'.repeat(501) }, 'index_invalid_value', 'expediente'],
      [{ color: 'rojo' }, 'index_unknown_column', 'color'],
      [[1, 2], 'index_invalid_values', null],
    ] as const) {
      const response = await fileUnder(client, ana, doc.id, index.id, values)
      response.assertStatus(400)
      response.assertBody(column ? { column, status: 'fail', message: text('es', key, { column }) } : fail(key))
    }
    assertFail(await fileUnder(client, beto, doc.id, index.id, { folios: 1 }), 403, 'access_read_only')
    assertFail(await fileUnder(client, carla, doc.id, index.id, { folios: 1 }), 404, 'access_not_found')
    assertFail(await fileUnder(client, ana, doc.id, 999999, { folios: 1 }), 404, 'index_not_found')
    assertFail(await api(client, carla, 'fileValues', { id: doc.id }), 404, 'access_not_found')
    assert.equal(await tables(), before, 'refusals change nothing')

    // A reader sees the values; the search finds the file by one of them.
    const seen = (await api(client, beto, 'fileValues', { id: doc.id })).body().data as FileIndexValues[]
    assert.deepEqual(seen, [filed.body().data as FileIndexValues])
    const found = await op(client, ana, 'search', { type_search: 'doc', jsonwhere: JSON.stringify({ text: 'exp-17' }) })
    assert.deepEqual(
      (found.body().data as SearchAnswer).documents.map((d) => d.id),
      [doc.id]
    )

    // A column whose type changes loses its values (never read as another type); the others stay.
    await api(
      client,
      ana,
      'update',
      { id: index.id },
      {
        name: 'Expedientes',
        columns: [...EXPEDIENTE.slice(0, 1), { name: 'folios', type: 'text' }, ...EXPEDIENTE.slice(2)],
      }
    )
    const after = (await api(client, ana, 'fileValues', { id: doc.id })).body().data as FileIndexValues[]
    assert.deepEqual(after[0]!.values, { expediente: 'EXP-17', radicado: '2026-03-01', urgente: true })

    ;(await api(client, ana, 'unfile', { id: doc.id, index: index.id })).assertStatus(200)
    assertFail(await api(client, ana, 'unfile', { id: doc.id, index: index.id }), 404, 'index_not_filed')
    const gone = await op(client, ana, 'search', { type_search: 'doc', jsonwhere: JSON.stringify({ text: 'exp-17' }) })
    assert.lengthOf((gone.body().data as SearchAnswer).documents, 0)
  })

  test('select_indexing answers the rows of files the caller may read, filtered and limited', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_si', 'teacher')
    const beto = await person(client, 'beto_si', 'student')
    const top = await makeIndex(client, ana, 'Expedientes', EXPEDIENTE)
    const sub = await makeIndex(client, ana, 'Contratos', [{ name: 'contratista', type: 'text' }], top.id)
    const a = await upload(client, ana, 'A.txt', txt('a'))
    const b = await upload(client, ana, 'B.txt', txt('b'))
    const c = await upload(client, beto, 'C.txt', txt('c'))
    const trashed = await upload(client, ana, 'D.txt', txt('d'))
    for (const [file, who, values] of [
      [a, ana, { expediente: 'EXP-1', folios: 3, urgente: true }],
      [b, ana, { expediente: 'EXP-2', folios: 5, urgente: false }],
      [c, beto, { expediente: 'EXP-3', folios: 5 }],
      [trashed, ana, { expediente: 'EXP-4' }],
    ] as const) {
      ;(await fileUnder(client, who, file.id, top.id, values)).assertStatus(200)
    }
    ;(await fileUnder(client, ana, a.id, sub.id, { contratista: 'Obras SAS' })).assertStatus(200)
    await call(client, 'post', '/api/documents/trash', ana.token, { files: [trashed.id] })
    await share('file', a.id, beto.id, ana.id, 'read')

    const rows = async (who: Person, fields: Record<string, unknown>) => {
      const response = await selectIndexing(client, who, fields)
      response.assertStatus(200)
      return response.body().data
    }
    const all = { type_indexing: 'indexing', id: top.id, fields_select: '["id_doc","name_doc","expediente","folios"]' }
    assert.deepEqual(await rows(ana, all), [
      { id_doc: a.id, name_doc: 'A.txt', expediente: 'EXP-1', folios: 3 },
      { id_doc: b.id, name_doc: 'B.txt', expediente: 'EXP-2', folios: 5 },
    ])
    // Beto reads his own file and the one shared with him, not Ana's others.
    assert.deepEqual(
      (await rows(beto, all)).map((r: { name_doc: string }) => r.name_doc),
      ['A.txt', 'C.txt']
    )
    assert.deepEqual(await rows(ana, { ...all, fields_select: 'expediente,urgente', jsonwhere: '{"folios": 5}' }), [
      { expediente: 'EXP-2', urgente: false },
    ])
    assert.deepEqual(await rows(ana, { ...all, fields_select: '["expediente"]', jsonwhere: '{"urgente": true}' }), [
      { expediente: 'EXP-1' },
    ])
    assert.deepEqual(await rows(ana, { ...all, fields_select: '["expediente"]', limit: '1' }), [
      { expediente: 'EXP-1' },
    ])
    assert.deepEqual(
      await rows(ana, { type_indexing: 'sub', id: sub.id, fields_select: '["name_doc","contratista"]' }),
      [{ name_doc: 'A.txt', contratista: 'Obras SAS' }]
    )

    for (const [fields, status] of [
      [{ ...all, type_indexing: 'sub' }, 404],
      [{ ...all, type_indexing: 'todo' }, 400],
      [{ ...all, id: 'x' }, 400],
      [{ ...all, fields_select: '["clave"]' }, 400],
      [{ ...all, fields_select: '[]' }, 400],
      [{ ...all, jsonwhere: '{"clave": 1}' }, 400],
      [{ ...all, jsonwhere: '{"folios": {"$gt": 1}}' }, 400],
      [{ ...all, jsonwhere: '{"expediente": "\' OR \'1\'=\'1"}' }, 200],
      [{ ...all, limit: '-1' }, 400],
    ] as const) {
      const response = await selectIndexing(client, ana, fields)
      assert.equal(response.status(), status, JSON.stringify(fields))
      if (status === 200) assert.deepEqual(response.body().data, [])
      else assert.equal(response.body().status, 'fail')
    }
  })
})
