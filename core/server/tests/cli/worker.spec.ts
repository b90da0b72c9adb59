import { test } from '@japa/runner'
import { TRAMITA_BIN, freePort, runCli, startProcess, waitForHttp } from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'
import { waitUntil } from '#tests/helpers/wait'

test.group('tramita worker with Redis', () => {
  test('a job the server enqueues is run by `tramita worker` in another process', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-worker')
    cleanup(() => db.drop())
    const env = { ...db.env, QUEUE_PREFIX: `t${process.pid}${Date.now()}` }
    assert.equal((await runCli(['migrate'], env)).code, 0)
    assert.equal((await runCli(['seed', '--demo'], env)).code, 0)
    // A session revoked long ago: the server's hourly maintenance job deletes it.
    const old = '2020-01-01 00:00:00'
    await db.query(
      'insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at, revoked_at) values (?, 1, ?, ?, ?, ?)',
      ['f'.repeat(64), old, old, old, old]
    )

    const worker = startProcess([TRAMITA_BIN, 'worker'], env)
    cleanup(async () => void (await worker.stop()))
    const port = await freePort()
    const server = startProcess([TRAMITA_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], env)
    cleanup(async () => void (await server.stop()))
    await waitForHttp(port, server)

    const left = async () => Number((await db.query<{ n: number }>('select count(*) as n from sessions'))[0].n)
    await waitUntil(
      async () => (await left()) === 0,
      30_000,
      () => `no sessions left; worker output:\n${worker.output()}\nserver output:\n${server.output()}`,
      250
    )
    assert.include(worker.output(), 'Worker started')

    // SIGTERM drains and exits cleanly.
    const code = await worker.stop('SIGTERM')
    assert.equal(code, 0, worker.output())
    assert.include(worker.output(), 'Worker stopped')
  }).skip(!process.env.REDIS_URL, 'needs Redis (runs in the cli-mariadb-redis step)')
})
