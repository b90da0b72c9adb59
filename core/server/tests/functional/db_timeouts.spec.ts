import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { MysqlConfig } from '@adonisjs/lucid/types/database'
import { STATEMENT_TIMEOUT_CODE, mysqlLimits, withoutStatementLimit } from '#lib/db_timeouts'
import { startStallingProxy, type StallingProxy } from '#tests/helpers/stalling_proxy'

const MYSQL = process.env.DB_CONNECTION === 'mysql'
const NAME = 'bounded_probe'
const TABLE = 'test_bounded_probe'
/** Short, so that each wait here is a fraction of a second; the product's default is 30 s. */
const LIMIT_MS = 600

interface DbError {
  code?: string
  fatal?: boolean
  name?: string
  message: string
}

/**
 * Every wait for MariaDB has a limit (core/server/app/lib/db_timeouts.ts): the app's own MariaDB
 * connection settings with LIMIT_MS, reaching the suite's server through a proxy that can stop
 * passing bytes (a frozen server or a network that drops packets). Without the limits each wait
 * below lasts until this test's own timeout.
 */
test.group('MariaDB waits are bounded', (group) => {
  let proxy: StallingProxy
  group.setup(async () => {
    if (!MYSQL) return
    const primary = db.manager.get(db.primaryConnectionName)!.config as MysqlConfig
    const target = { host: primary.connection!.host ?? '127.0.0.1', port: Number(primary.connection!.port ?? 3306) }
    proxy = await startStallingProxy(target)
    const limits = mysqlLimits(LIMIT_MS)
    db.manager.add(NAME, {
      ...primary,
      connection: { ...primary.connection, host: '127.0.0.1', port: proxy.port, ...limits.connection },
      pool: { min: 0, max: 2, ...limits.pool },
    })
    await db.rawQuery(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INT PRIMARY KEY)`)
  })
  group.teardown(async () => {
    if (!MYSQL) return
    // The proxy first: its sockets closed end any wait on them, so the pool can be released.
    await proxy.close()
    await db.manager.release(NAME)
    await db.rawQuery(`DROP TABLE IF EXISTS ${TABLE}`)
  })
  group.each.setup(() => proxy?.resume())

  test('a statement past the limit fails as the database down; the next one gets a new connection', async ({
    assert,
  }) => {
    const bounded = db.connection(NAME)
    const [[{ id: before }]] = await bounded.rawQuery('SELECT CONNECTION_ID() AS id')
    const error = (await bounded.rawQuery('SELECT SLEEP(5)').then(
      () => null,
      (e: DbError) => e
    )) as DbError | null
    assert.equal(error?.code, STATEMENT_TIMEOUT_CODE)
    assert.isTrue(error?.fatal, 'marked fatal: the exception handler answers 503')
    assert.include(error?.message, `did not answer within ${LIMIT_MS} ms`)
    const [[{ id: after }]] = await bounded.rawQuery('SELECT CONNECTION_ID() AS id')
    assert.notEqual(Number(after), Number(before))
  }).skip(!MYSQL, 'MariaDB only (runs in functional-mariadb)')

  test('a transaction whose statement passes the limit fails, and stores nothing', async ({ assert }) => {
    const attempt = db.connection(NAME).transaction(async (trx) => {
      await trx.insertQuery().table(TABLE).insert({ id: 7 })
      await trx.rawQuery('SELECT SLEEP(5)')
    })
    const error = (await attempt.then(
      () => null,
      (e: DbError) => e
    )) as DbError | null
    assert.isTrue(error?.fatal, `fatal: ${error?.message}`)
    const [[{ n }]] = await db.rawQuery(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE id = 7`)
    assert.equal(Number(n), 0)
  }).skip(!MYSQL, 'MariaDB only (runs in functional-mariadb)')

  test('a stalled server: the statement, then the pool, fail instead of waiting; once it answers, all is well', async ({
    assert,
  }) => {
    const bounded = db.connection(NAME)
    await bounded.rawQuery('SELECT 1')
    proxy.stall()
    const onOpen = (await bounded.rawQuery('SELECT 1').catch((e: DbError) => e)) as DbError
    assert.equal(onOpen.code, STATEMENT_TIMEOUT_CODE)
    // Its connection is gone; a new one gets no handshake: the pool's wait ends.
    const onNew = (await bounded.rawQuery('SELECT 2').catch((e: DbError) => e)) as DbError
    assert.oneOf(onNew.name ?? onNew.code, ['KnexTimeoutError', 'ETIMEDOUT'], onNew.message)
    proxy.resume()
    // A handshake begun while stalled still ends in its own timeout and may fail one more caller.
    let answer: DbError | [[{ three: number }]] = { message: 'not tried' }
    for (let attempt = 0; attempt < 3 && !Array.isArray(answer); attempt++) {
      answer = await bounded.rawQuery('SELECT 3 AS three').catch((e: DbError) => e)
    }
    assert.isTrue(Array.isArray(answer), `serves again: ${(answer as DbError).message}`)
    assert.equal(Number((answer as [[{ three: number }]])[0][0].three), 3)
  })
    .skip(!MYSQL, 'MariaDB only (runs in functional-mariadb)')
    .timeout(20_000)

  test('migrations run without the statement limit; a statement beside them keeps it', async ({ assert }) => {
    const bounded = db.connection(NAME)
    const [inside, beside] = await Promise.allSettled([
      // In a transaction, as the migration runner runs each file.
      withoutStatementLimit(() => bounded.transaction((trx) => trx.rawQuery('SELECT SLEEP(1) AS slept'))),
      bounded.rawQuery('SELECT SLEEP(1)'),
    ])
    assert.equal(inside.status, 'fulfilled')
    assert.equal(beside.status, 'rejected')
    assert.equal((beside as PromiseRejectedResult).reason.code, STATEMENT_TIMEOUT_CODE)
  }).skip(!MYSQL, 'MariaDB only (runs in functional-mariadb)')
})
