import { join } from 'node:path'
import { test } from '@japa/runner'
import {
  REPO_ROOT,
  SERVER_ROOT,
  TRAMITA_BIN,
  freePort,
  runCli,
  startProcess,
  waitForHttp,
} from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'

const TEMPLATE = join(REPO_ROOT, 'templates', 'forms', 'censo.json')

/** The CLI on a data folder that was never migrated, or that already holds a database. */
test.group('tramita CLI on a fresh folder', () => {
  test('data commands on a never-migrated database say in one line to migrate first', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-fresh')
    cleanup(() => db.drop())
    for (const args of [['forms:import', TEMPLATE], ['forms:list'], ['seed', '--demo']]) {
      const result = await runCli(args, db.env)
      assert.equal(result.code, 1, result.output)
      assert.equal(
        result.output.trim().split('\n').at(-1),
        'tramita: the database has no tables yet: run `tramita migrate` first',
        args.join(' ')
      )
      assert.notInclude(result.output, 'no such table')
    }
    const migrated = await runCli(['migrate'], db.env)
    assert.equal(migrated.code, 0, migrated.output)
    const imported = await runCli(['forms:import', TEMPLATE], db.env)
    assert.equal(imported.code, 0, imported.output)
    assert.include(imported.output, 'created as a draft')
  })

  test('serve --migrate --seed-demo loads demo data into a database without users, and says why it does not', async ({
    assert,
    cleanup,
  }) => {
    const db = childDatabase('cli-existing')
    cleanup(() => db.drop())
    const migrated = await runCli(['migrate'], db.env)
    assert.equal(migrated.code, 0, migrated.output)
    // The CLI suite's children inherit NODE_ENV=test, whose logs are quiet below warnings.
    const env = { ...db.env, LOG_LEVEL: 'info' }
    const serve = async () => {
      const port = await freePort()
      const server = startProcess(
        [TRAMITA_BIN, 'serve', '--migrate', '--seed-demo', '--port', String(port), '--host', '127.0.0.1'],
        env,
        SERVER_ROOT
      )
      cleanup(async () => void (await server.stop()))
      await waitForHttp(port, server)
      await server.stop()
      return server.output()
    }
    // Migrated by hand but empty: the demo users go in.
    const first = await serve()
    assert.include(first, 'demo data loaded (users admin, supervisor, teacher, student)')
    const users = await db.query<{ username: string }>('select username from users order by id')
    assert.deepEqual(
      users.map((u) => u.username),
      ['admin', 'supervisor', 'teacher', 'student']
    )
    // A database with users keeps them, and the log says why no demo data was loaded.
    const second = await serve()
    assert.include(second, 'demo data not loaded: the database already has users')
    assert.notInclude(second, 'demo data loaded')
  })
})
