import { test } from '@japa/runner'
import { runCli } from '#tests/helpers/processes'
import { childDatabase, seedChildDatabase } from '#tests/helpers/child_database'

/**
 * `tramita documents:retention [--dry-run]` (plugins/documents/server/cli/retention.ts) against a real
 * database: a folder under a 2 + 8 year schedule holds a document created 11 years ago and another 3
 * years ago. The dry run lists the first and mails nothing; the run mails it once; a second run mails
 * nothing new. (The mail itself, its code and the confirmation: the plugin's functional tests.)
 */
test.group('tramita documents:retention', (group) => {
  const db = childDatabase('cli-retention')
  const env = db.env
  const mysql = process.env.DB_CONNECTION === 'mysql'
  /** A timestamp as each engine stores Lucid's: SQLite milliseconds, MariaDB DATETIME. */
  const stamp = (yearsAgo: number) => {
    const date = new Date()
    date.setUTCFullYear(date.getUTCFullYear() - yearsAgo)
    return mysql ? date.toISOString().slice(0, 23).replace('T', ' ') : date.getTime()
  }
  const count = async (sql: string) => Number((await db.query<{ n: number }>(sql))[0]!.n)

  group.setup(async () => {
    // Migrated and demo-seeded: a copy of the suite's template (child_database.ts).
    await seedChildDatabase(db)
    const admin = Number((await db.query<{ id: number }>("select id from users where username = 'admin'"))[0]!.id)
    await db.query(
      `insert into documents_retention_schedules (code, serie, subserie, doc_type, active_years, central_years, disposition, created_at, updated_at)
       values ('100-12.3', 'Contratos', '', '', 2, 8, 'delete', ?, ?)`,
      [stamp(0), stamp(0)]
    )
    const schedule = Number((await db.query<{ id: number }>('select id from documents_retention_schedules'))[0]!.id)
    await db.query(
      `insert into documents_folders (type, name, creator_id, retention_schedule_id, created_at, updated_at)
       values ('normal', 'Contratos', ?, ?, ?, ?)`,
      [admin, schedule, stamp(0), stamp(0)]
    )
    const folder = Number((await db.query<{ id: number }>('select id from documents_folders'))[0]!.id)
    for (const [name, years] of [
      ['vencido.txt', 11],
      ['vigente.txt', 3],
    ] as const) {
      await db.query(
        `insert into documents_files (folder_id, owner_id, name, extension, mime, size, storage_key, sha256, current_version, created_at, updated_at)
         values (?, ?, ?, 'txt', 'text/plain', 3, ?, ?, 1, ?, ?)`,
        [folder, admin, name, `plugins/documents/2020/01/${name}`, '0'.repeat(64), stamp(years), stamp(years)]
      )
    }
    return () => db.drop()
  })

  test('--dry-run lists what is due and mails nothing; without it, each document is mailed once', async ({
    assert,
  }) => {
    const dry = await runCli(['documents:retention', '--dry-run'], env)
    assert.equal(dry.code, 0, dry.output)
    assert.match(
      dry.output,
      /#\d+ vencido\.txt — schedule 100-12\.3 \(folder \d+\) — .+ \(user \d+\) — due since \d{4}-\d\d-\d\d/
    )
    assert.notInclude(dry.output, 'vigente.txt')
    assert.include(dry.output, '1 document(s) due; dry run: nothing mailed')
    assert.equal(await count('select count(*) as n from documents_retention_requests'), 0)
    assert.equal(await count("select count(*) as n from job_outbox where job_name = 'core:plugin-mail'"), 0)

    const run = await runCli(['documents:retention'], env)
    assert.equal(run.code, 0, run.output)
    assert.include(run.output, '1 document(s) due; 1 confirmation(s) mailed')
    assert.equal(await count('select count(*) as n from documents_retention_requests where mailed_at is not null'), 1)

    // Run again: the code is open, nothing is mailed; the list says it was mailed.
    const again = await runCli(['documents:retention'], env)
    assert.equal(again.code, 0, again.output)
    assert.match(again.output, /vencido\.txt .*; mailed, open until \d{4}-/)
    assert.include(again.output, '1 document(s) due; 0 confirmation(s) mailed')
    assert.equal(await count('select count(*) as n from documents_retention_requests'), 1)
  })
})
