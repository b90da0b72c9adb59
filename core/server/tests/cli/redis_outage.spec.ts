import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { prehash } from '#lib/password'
import { childDatabase } from '#tests/helpers/child_database'
import {
  NOT_ABOUT_THE_DATABASE,
  SERVER_ROOT,
  TRAMITA_BIN,
  freePort,
  runCli,
  startProcess,
  waitForHttp,
} from '#tests/helpers/processes'
import { areaReviewProcess, permitConfig } from '#tests/helpers/process'
import { redisPort, startRedisServer } from '#tests/helpers/redis_server'
import { waitUntil } from '#tests/helpers/wait'

interface Health {
  status: 'ok' | 'degraded'
  degraded: string[]
  checks: Record<string, { ok: boolean; driver: string; detail?: string }>
}

/** Issue 17 item 3: a node whose Redis is down serves, signs in, queues through the outbox, and recovers. */
test.group('tramita serve while Redis is down', () => {
  test('the node stays up, signs in, names what is degraded, and recovers when Redis returns', async ({
    assert,
    cleanup,
  }) => {
    const db = childDatabase('cli-redis-outage')
    cleanup(() => db.drop())
    // REDIS_URL names a port where nothing listens yet.
    const redis = await redisPort()
    const port = await freePort()
    const env = { ...db.env, REDIS_URL: redis.url, QUEUE_PREFIX: `outage${process.pid}${Date.now()}` }
    const server = startProcess(
      [TRAMITA_BIN, 'serve', '--migrate', '--seed-demo', '--port', String(port), '--host', '127.0.0.1'],
      env,
      SERVER_ROOT
    )
    cleanup(async () => void (await server.stop()))
    await waitForHttp(port, server)
    const base = `http://127.0.0.1:${port}`
    const health = async () => {
      const response = await fetch(`${base}/health`)
      return { code: response.status, body: (await response.json()) as Health }
    }

    const down = await health()
    assert.equal(down.code, 503)
    assert.equal(down.body.status, 'degraded')
    assert.includeMembers(down.body.degraded, ['queue', 'sockets', 'limiter'])
    assert.notInclude(down.body.degraded, 'database')
    assert.equal(down.body.checks.limiter.driver, 'database')

    // Sign-in counts its limits in the database meanwhile.
    const signIn = await fetch(`${base}/data/login`, {
      method: 'PUT',
      body: new URLSearchParams({ case: 'PUT', user: 'admin', password: prehash('Tramita#2026') }),
    })
    const answer = (await signIn.json()) as { status: string; data: { token_new: string } }
    assert.equal(answer.status, 'done', JSON.stringify(answer))
    assert.isString(answer.data.token_new)
    const counted = await db.query<{ n: number }>('select count(*) as n from rate_limits')
    assert.isAbove(Number(counted[0]!.n), 0, 'the sign-in request was counted in the database')

    // A save whose next step mails its assignees commits and answers; the mail job waits in the outbox.
    const [area] = await db.query<{ id: number }>("select id from areas where name = 'Académica'")
    const file = join(db.dataDir, 'review.json')
    const name = 'Revisión sin Redis'
    writeFileSync(
      file,
      JSON.stringify({ name, jsonconfig: permitConfig(), process: areaReviewProcess(name, area!.id) })
    )
    const imported = await runCli(['forms:import', file, '--publish'], db.env)
    assert.equal(imported.code, 0, imported.output)
    const formKey = /data=([\w-]+)/.exec(imported.output)![1]!
    const save = await fetch(`${base}/data/form/flows/process`, {
      method: 'POST',
      headers: { token: answer.data.token_new },
      body: new URLSearchParams({
        case: 'POST',
        data: formKey,
        flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' }),
      }),
    })
    const saved = (await save.json()) as { status: string }
    assert.equal(saved.status, 'done', JSON.stringify(saved))
    const notices = await db.query<{ n: number }>(
      "select count(*) as n from job_outbox where job_name = 'core:process-task-notice'"
    )
    assert.equal(Number(notices[0]!.n), 1)

    // A request that queues a mail outside a save answers too; that job waits in the outbox as well.
    const forgot = await fetch(`${base}/data/forgetPassword/admin`, {
      method: 'PUT',
      body: new URLSearchParams({ case: 'PUT' }),
    })
    assert.equal(((await forgot.json()) as { status: string }).status, 'done')
    const staged = await db.query<{ n: number }>(
      "select count(*) as n from job_outbox where job_name = 'core:password-recovery-mail'"
    )
    assert.equal(Number(staged[0]!.n), 1)
    assert.isNull(server.child.exitCode, 'the node is still running')

    // Redis comes back: the same node reconnects, and the relay queues the waiting job.
    const live = await startRedisServer(redis.port)
    cleanup(() => live.stop())
    await waitUntil(
      async () => (await health()).body.status === 'ok',
      60_000,
      () => `/health to be ok again\n${server.output()}`,
      250
    )
    await waitUntil(
      async () =>
        Number(
          (await db.query<{ n: number }>('select count(*) as n from job_outbox where queued_at is null'))[0]!.n
        ) === 0,
      30_000,
      'every outbox row to be queued',
      250
    )
    assert.isNull(server.child.exitCode, 'the node is still running')
  })
    .timeout(180_000)
    .skip(...NOT_ABOUT_THE_DATABASE)

  test('SIGTERM during the outage ends the node cleanly: exit code 0, no stack trace', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-redis-outage-stop')
    cleanup(() => db.drop())
    const redis = await redisPort()
    const port = await freePort()
    const env = { ...db.env, REDIS_URL: redis.url, QUEUE_PREFIX: `outagestop${process.pid}${Date.now()}` }
    const server = startProcess(
      [TRAMITA_BIN, 'serve', '--migrate', '--port', String(port), '--host', '127.0.0.1'],
      env,
      SERVER_ROOT
    )
    cleanup(async () => void (await server.stop('SIGKILL')))
    await waitForHttp(port, server)

    server.child.kill('SIGTERM')
    await waitUntil(
      () => server.child.exitCode !== null || server.child.signalCode !== null,
      60_000,
      () => `the node to exit after SIGTERM\n${server.output()}`,
      100
    )
    assert.equal(server.child.exitCode, 0, server.output())
    assert.notMatch(server.output(), /^\s+at /m, 'no stack trace')
  })
    .timeout(120_000)
    .skip(...NOT_ABOUT_THE_DATABASE)
})
