import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { runCli } from '../../../../core/server/tests/helpers/processes.js'
import { childDatabase, seedChildDatabase } from '../../../../core/server/tests/helpers/child_database.js'
import { scannedPdf } from '../functional/ocr_fixtures.js'

/** `tramita documents:ocr` (plugins/documents/server/cli/ocr_command.ts) against a real database and engine. */
test.group('tramita documents:ocr', (group) => {
  const db = childDatabase('cli-ocr')
  const env = db.env
  const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0]!

  group.setup(async () => {
    // Migrated and demo-seeded: a copy of the suite's template (child_database.ts).
    await seedChildDatabase(db)
    return () => db.drop()
  })

  test('OCRs a file by id with progress, then has nothing pending; bad ids are refused', async ({ assert }) => {
    const src = mkdtempSync(join(tmpdir(), 'tramita-ocr-src-'))
    writeFileSync(join(src, 'acta.pdf'), await scannedPdf([['Acta de la junta directiva', 'Votacion unanime']]))
    const imported = await runCli(['documents:import', src], env)
    assert.equal(imported.code, 0, imported.output)
    const file = await one<{ id: number }>("select id from documents_files where name = 'acta.pdf'")

    const ocr = await runCli(['documents:ocr', String(file.id)], env)
    assert.equal(ocr.code, 0, ocr.output)
    assert.match(ocr.output, /acta\.pdf \(v1\) \[#+\] 1\/1 done/)
    assert.include(ocr.output, 'acta.pdf (v1): done (ocr 1)')
    const row = await one<{ ocr_state: string; sub_type: string; pages: number }>(
      'select ocr_state, sub_type, pages from documents_files where id = ?',
      [file.id]
    )
    assert.deepEqual({ ...row, pages: Number(row.pages) }, { ocr_state: 'done', sub_type: 'ocr', pages: 1 })
    const billed = await one<{ n: number }>(
      "select count(*) as n from usage_events where plugin = 'documents' and metric = 'ocr_page'"
    )
    assert.equal(Number(billed.n), 1)

    const pending = await runCli(['documents:ocr', '--pending'], env)
    assert.equal(pending.code, 0, pending.output)
    assert.include(pending.output, 'nothing to OCR')

    const runs = await one<{ n: number }>('select count(*) as n from documents_ocr_runs')
    for (const args of [['documents:ocr'], ['documents:ocr', 'abc'], ['documents:ocr', '1', '--pending']]) {
      const refused = await runCli(args, env)
      assert.equal(refused.code, 1, refused.output)
      assert.match(refused.output, /usage: tramita documents:ocr|not a file id/)
    }
    const mode = await runCli(['documents:ocr', String(file.id), '--mode', 'bogus'], env)
    assert.equal(mode.code, 1, mode.output)
    assert.equal(Number((await one<{ n: number }>('select count(*) as n from documents_ocr_runs')).n), Number(runs.n))
  }).timeout(180_000)
})
