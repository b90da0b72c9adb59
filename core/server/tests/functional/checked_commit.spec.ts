import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'

const MYSQL = process.env.DB_CONNECTION === 'mysql'
const TABLE = 'test_commit_probe'

/**
 * A COMMIT that fails (here: its connection killed by the server, as when MariaDB restarts) must fail
 * the transaction, not return as if saved (knex#6141; core/server/app/lib/checked_commit.ts). Found by
 * the load test of issue 22: a case answered `done` was not in the database after MariaDB restarted.
 */
test.group('a transaction whose COMMIT fails', (group) => {
  group.setup(async () => {
    if (MYSQL) await db.rawQuery(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INT PRIMARY KEY)`)
  })
  group.teardown(async () => {
    if (MYSQL) await db.rawQuery(`DROP TABLE IF EXISTS ${TABLE}`)
  })

  test('rejects, runs no after-commit hook, and nothing it wrote is stored', async ({ assert }) => {
    let hookRan = false
    const attempt = db.transaction(async (trx) => {
      await trx.insertQuery().table(TABLE).insert({ id: 1 })
      trx.after('commit', () => {
        hookRan = true
      })
      const [[{ id }]] = await trx.rawQuery('SELECT CONNECTION_ID() AS id')
      // Another connection of the pool ends this one, as a restarting server would, before COMMIT.
      await db.rawQuery('KILL ?', [id])
      return 'saved'
    })
    await assert.rejects(() => attempt)
    assert.isFalse(hookRan)
    const [[{ n }]] = await db.rawQuery(`SELECT COUNT(*) AS n FROM ${TABLE}`)
    assert.equal(Number(n), 0)
    // The pool goes on serving.
    const [[{ one }]] = await db.rawQuery('SELECT 1 AS one')
    assert.equal(Number(one), 1)
  }).skip(!MYSQL, 'needs a server whose connections can be killed (runs in functional-mariadb)')
})
