import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { SearchAnswer } from '../../shared/operations.js'
import { person, resetLibrary, txt, type Client, type Person } from './library_fixtures.js'
import { assertCode, makeFolder, op, share, snapshot, upload } from './operations_fixtures.js'

async function search(client: Client, who: Person, fields: Record<string, unknown>): Promise<SearchAnswer> {
  const response = await op(client, who, 'search', fields)
  response.assertStatus(200)
  return response.body().data as SearchAnswer
}

/** The names of the documents found for a text, sorted. */
async function found(
  client: Client,
  who: Person,
  words: string,
  extra: Record<string, unknown> = {}
): Promise<string[]> {
  const answer = await search(client, who, { type_search: 'doc', jsonwhere: JSON.stringify({ text: words }), ...extra })
  return answer.documents.map((d) => d.name).sort()
}

test.group('documents search: search_doc_folder on full text', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('accents and case are ignored both ways; every word is required; words match as prefixes', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_se', 'teacher')
    await upload(client, ana, 'Informe de Energía.txt', txt('1'))
    await upload(client, ana, 'ENERGIA solar.txt', txt('2'))
    await upload(client, ana, 'Contrato de arriendo.txt', txt('3'))
    assert.deepEqual(await found(client, ana, 'energia'), ['ENERGIA solar.txt', 'Informe de Energía.txt'])
    assert.deepEqual(await found(client, ana, 'ÉNERGÍA'), ['ENERGIA solar.txt', 'Informe de Energía.txt'])
    assert.deepEqual(await found(client, ana, 'energ sol'), ['ENERGIA solar.txt'])
    // "de" is short (and a MariaDB stopword): still required, matched as a word start.
    assert.deepEqual(await found(client, ana, 'de energia'), ['Informe de Energía.txt'])
    assert.deepEqual(await found(client, ana, 'contrato energia'), [])
  })

  test('FTS syntax typed by a user is searched as text: quotes, stars, minus, NEAR, AND, OR', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_fx', 'teacher')
    await upload(client, ana, 'near and or.txt', txt('1'))
    await upload(client, ana, 'solar energia.txt', txt('2'))
    await upload(client, ana, 'otro.txt', txt('3'))
    assert.deepEqual(await found(client, ana, 'NEAR'), ['near and or.txt'])
    assert.deepEqual(await found(client, ana, 'AND'), ['near and or.txt'])
    assert.deepEqual(await found(client, ana, 'solar -energia'), ['solar energia.txt'])
    assert.deepEqual(await found(client, ana, '"solar" energia*'), ['solar energia.txt'])
    // NEAR is a word to find here, not an operator: no file holds both words.
    assert.deepEqual(await found(client, ana, 'NEAR("solar")'), [])
    for (const typed of ['"', '*', '-', '"unclosed', 'a OR', '(((', 'NEAR(', '^solar', 'energia*', ':', "o'brien"]) {
      const response = await op(client, ana, 'search', { jsonwhere: JSON.stringify({ text: typed }) })
      assert.equal(response.status(), 200, typed)
    }
    // Nothing searchable (only symbols): no text condition, the other filters alone.
    assert.lengthOf(await found(client, ana, '" * -'), 3)
  })

  test('a Chinese name is found by a two-character word, by one character and by the whole name', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_zh', 'teacher')
    await upload(client, ana, '劳动合同书.txt', txt('1'))
    await upload(client, ana, '会议记录.txt', txt('2'))
    await upload(client, ana, '合作方案v2.txt', txt('3'))
    assert.deepEqual(await found(client, ana, '合同'), ['劳动合同书.txt'])
    assert.deepEqual(await found(client, ana, '同书'), ['劳动合同书.txt'])
    assert.deepEqual(await found(client, ana, '劳动合同书'), ['劳动合同书.txt'])
    assert.deepEqual(await found(client, ana, '记录'), ['会议记录.txt'])
    assert.deepEqual(await found(client, ana, '合'), ['劳动合同书.txt', '合作方案v2.txt'])
    assert.deepEqual(await found(client, ana, '方案 v2'), ['合作方案v2.txt'])
    assert.deepEqual(await found(client, ana, '合记'), [])
  })

  test("only what the caller may read: not others' files, not the trash; a shared folder opens its content", async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_ac', 'teacher')
    const bruno = await person(client, 'bruno_ac', 'student')
    const folder = await makeFolder(client, ana, 'Compartida')
    const sub = await makeFolder(client, ana, 'Sub', folder)
    const inSub = await upload(client, ana, 'presupuesto anual.txt', txt('1'), sub)
    await upload(client, ana, 'presupuesto privado.txt', txt('2'))
    await upload(client, bruno, 'presupuesto de bruno.txt', txt('3'))
    assert.deepEqual(await found(client, bruno, 'presupuesto'), ['presupuesto de bruno.txt'])
    await share('folder', folder, bruno.id, ana.id, 'read')
    assert.deepEqual(await found(client, bruno, 'presupuesto'), ['presupuesto anual.txt', 'presupuesto de bruno.txt'])
    await db.from('documents_files').where('id', inSub.id).update({ trashed_at: new Date(), trashed_by: ana.id })
    assert.deepEqual(await found(client, bruno, 'presupuesto'), ['presupuesto de bruno.txt'])
    assert.deepEqual(await found(client, ana, 'presupuesto'), ['presupuesto privado.txt'])
  })

  test('a folder (id_folder or path), its subfolders, folders by name, and the jsonwhere filters', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_fo', 'teacher')
    const top = await makeFolder(client, ana, 'Proyectos')
    const sub = await makeFolder(client, ana, 'Energía Renovable', top)
    await upload(client, ana, 'plan uno.txt', txt('1'), top)
    const deep = await upload(client, ana, 'plan dos.pdf', txt('%PDF-1.4 fake'), sub)
    await upload(client, ana, 'plan tres.txt', txt('3'))
    assert.deepEqual(await found(client, ana, 'plan', { id_folder: String(top) }), ['plan uno.txt'])
    assert.deepEqual(await found(client, ana, 'plan', { id_folder: String(top), subcarpetas: 'true' }), [
      'plan dos.pdf',
      'plan uno.txt',
    ])
    assert.deepEqual(await found(client, ana, 'plan', { path: '/Proyectos/Energía Renovable' }), ['plan dos.pdf'])
    const folders = await search(client, ana, { type_search: 'folder', jsonwhere: JSON.stringify({ text: 'energia' }) })
    assert.deepEqual(
      folders.folders.map((f) => f.name),
      ['Energía Renovable']
    )
    const all = await search(client, ana, { type_search: 'all', jsonwhere: '{"extension": ["pdf"]}' })
    assert.deepEqual(
      all.documents.map((d) => d.id),
      [deep.id]
    )

    // Metadata filters: an index's column values, compared as text, bound (never SQL).
    const [indexId] = await db.table('documents_indexes').insert({
      name: 'Expedientes',
      columns: JSON.stringify([{ name: 'expediente', type: 'text' }]),
      owner_id: ana.id,
      created_at: new Date(),
    })
    await db.table('documents_file_metadata').insert({
      file_id: deep.id,
      index_id: indexId,
      values: JSON.stringify({ expediente: 'A-17', año: 2026 }),
    })
    const meta = (where: object) => search(client, ana, { jsonwhere: JSON.stringify(where) })
    assert.deepEqual(
      (await meta({ metadata: { expediente: 'A-17' } })).documents.map((d) => d.id),
      [deep.id]
    )
    assert.deepEqual(
      (await meta({ metadata: { año: 2026 } })).documents.map((d) => d.id),
      [deep.id]
    )
    assert.lengthOf((await meta({ metadata: { expediente: "A-17' OR '1'='1" } })).documents, 0)
  })

  test('bad input is a clear no_search and changes nothing', async ({ client, assert }) => {
    const ana = await person(client, 'ana_bad', 'teacher')
    const bruno = await person(client, 'bruno_bad', 'student')
    const hers = await makeFolder(client, ana, 'Suya')
    const before = await snapshot()
    assertCode(await op(client, ana, 'search', { jsonwhere: '{"sql": "1=1"}' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { jsonwhere: 'no es json' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { jsonwhere: '[1,2]' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { jsonwhere: '{"metadata": {"a\\"b": 1}}' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { jsonwhere: '{"metadata": {"a": {"b": 1}}}' }), 400, 'no_search')
    assertCode(
      await op(client, ana, 'search', { jsonwhere: JSON.stringify({ text: 'x'.repeat(201) }) }),
      400,
      'no_search'
    )
    assertCode(await op(client, ana, 'search', { type_search: 'tables' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { path: '/../etc' }), 400, 'no_search')
    assertCode(await op(client, ana, 'search', { path: '/No existe' }), 404, 'no_search')
    assertCode(await op(client, bruno, 'search', { id_folder: String(hers) }), 404, 'no_search')
    assertCode(await op(client, ana, 'search', { id_folder: '1;DROP' }), 400, 'no_search')
    assert.equal(await snapshot(), before)
  })
})
