import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createQueue } from '../../app/jobs/create_queue.js'
import { OutboxRelay, stageJobs } from '#services/job_outbox'
import { latestVersionByKey } from '#services/process/definitions'
import { startCase } from '#services/process/engine'
import { taskNoticeJob } from '#services/process/notices'
import { makeUser, resetAuthTables } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { redisPort, startRedisServer } from '#tests/helpers/redis_server'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { waitUntil } from '#tests/helpers/wait'
import { quietLogger, uniquePrefix } from './helpers.js'

/** Issue 17 item 3: a save commits without Redis; its job waits in job_outbox and runs once Redis is back. */
test.group('Queue: Redis outage and the job outbox', (group) => {
  group.each.setup(async () => {
    await db.from('job_outbox').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  test('a save while Redis is down commits, and its assignee mail goes out once Redis is back', async ({
    assert,
    cleanup,
  }) => {
    // Nothing listens on this port yet: Redis is down from the start (a private one, killed with the test).
    const { port, url } = await redisPort()
    const prefix = uniquePrefix()
    const logger = quietLogger()
    const queue = await createQueue({ redisUrl: url, prefix, logger })
    queue.register(taskNoticeJob)
    const relay = new OutboxRelay(queue, logger)
    cleanup(async () => {
      await relay.stop()
      await queue.close()
    })

    const form = await publishPermit()
    const applicant = await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const version = await latestVersionByKey(form.key)
    const saved = await startCase(version!, applicant.id, {
      values: { nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' },
      lang: 'es',
    })

    // The save committed with its mail job staged beside it; the relay cannot queue it and says so.
    assert.lengthOf(saved.notify, 1)
    const key = `task-notice:${saved.notify[0]}`
    assert.equal(await relay.runOnce(), 0)
    const waiting = await db.from('job_outbox').where('idempotency_key', key).first()
    assert.exists(waiting, 'the job waits in the outbox')
    assert.isAtLeast(Number(waiting.attempts), 1)
    assert.isString(waiting.last_error)
    assert.lengthOf(mailsTo('revisora@example.test'), 0)

    const redis = await startRedisServer(port)
    cleanup(() => redis.stop())
    await queue.startWorker()
    // The row is retried after its back-off; the relay moves it once the queue answers (or the timed-out
    // add reached Redis after all). Its job runs, and the row goes once the job has ended.
    await waitUntil(
      async () => {
        await relay.runOnce()
        return !(await db.from('job_outbox').where('idempotency_key', key).first())
      },
      30_000,
      () => `the job to run and its row to go\n${logger.lines.join('\n')}`
    )
    const mail = await waitForMail('revisora@example.test', (m) => m.text.includes(saved.code), 30_000)
    assert.include(mail.subject, saved.code)
    assert.lengthOf(mailsTo('revisora@example.test'), 1)
  }).timeout(90_000)

  test('Redis killed under a running queue: the row stays staged, and moves once Redis is back', async ({
    assert,
    cleanup,
  }) => {
    const { port } = await redisPort()
    const first = await startRedisServer(port)
    const logger = quietLogger()
    const queue = await createQueue({ redisUrl: first.url, prefix: uniquePrefix(), logger })
    const ran: number[] = []
    queue.register({
      name: 'test:after-outage',
      async handle(payload: { n: number }) {
        ran.push(payload.n)
      },
    })
    await queue.startWorker()
    const relay = new OutboxRelay(queue, logger)
    cleanup(async () => {
      await relay.stop()
      await queue.close()
      await first.stop()
    })

    await stageJobs(db.connection(), [{ name: 'test:after-outage', payload: { n: 1 } }])
    assert.equal(await relay.runOnce(), 1)
    await waitUntil(() => ran.length === 1)

    await first.stop()
    await stageJobs(db.connection(), [{ name: 'test:after-outage', payload: { n: 2 } }])
    // The connection refuses the command instead of holding it: the pass ends, the row stays.
    assert.equal(await relay.runOnce(), 0)
    const waiting = await db.from('job_outbox').where('job_name', 'test:after-outage').first()
    assert.isString(waiting.last_error)

    const second = await startRedisServer(port)
    cleanup(() => second.stop())
    await waitUntil(
      async () => (await relay.runOnce()) === 1,
      30_000,
      () => `the relay to move the job\n${logger.lines.join('\n')}`
    )
    await waitUntil(
      () => ran.length === 2,
      30_000,
      () => `the job to run\n${logger.lines.join('\n')}`
    )
    assert.deepEqual(ran, [1, 2])
  }).timeout(90_000)

  test('a queue closed just as Redis dies, with a job running, still closes', async ({ assert }) => {
    const { port } = await redisPort()
    const redis = await startRedisServer(port)
    const queue = await createQueue({ redisUrl: redis.url, prefix: uniquePrefix(), logger: quietLogger() })
    let started = false
    queue.register({
      name: 'test:long-running',
      // Runs until the queue aborts it as it closes.
      async handle(_payload: unknown, ctx: { signal: AbortSignal }) {
        started = true
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }))
      },
    })
    await queue.startWorker()
    await queue.enqueue('test:long-running', {})
    await waitUntil(() => started)
    // No wait between the two: the connections still read as ready when the close begins.
    await redis.stop()
    await queue.close()
    assert.isFalse((await queue.health()).ok)
  }).timeout(30_000)

  test('relays on several nodes move each staged job exactly once', async ({ assert, cleanup }) => {
    const logger = quietLogger()
    const queue = await createQueue({ logger })
    const ran: number[] = []
    queue.register({
      name: 'test:outbox-once',
      async handle(payload: { n: number }) {
        ran.push(payload.n)
      },
    })
    await queue.startWorker()
    cleanup(() => queue.close())
    const count = 40
    await db.transaction((trx) =>
      stageJobs(
        trx,
        Array.from({ length: count }, (_, n) => ({ name: 'test:outbox-once', payload: { n } }))
      )
    )
    // Two nodes' relays (random job ids: the queue's dedupe would not hide a second move).
    const nodes = [new OutboxRelay(queue, logger), new OutboxRelay(queue, logger)]
    const moved = await Promise.all(nodes.map((relay) => relay.runOnce()))
    assert.equal(moved[0]! + moved[1]!, count)
    await waitUntil(() => ran.length >= count)
    assert.deepEqual(
      [...ran].sort((a, b) => a - b),
      Array.from({ length: count }, (_, n) => n)
    )
    // Each row goes once its job has ended (the worker settles it).
    await waitUntil(async () => Number((await db.from('job_outbox').count('* as n').first()).n) === 0)
  })

  // Issue 22: the load test restarted a Redis that keeps nothing on disk, and every job it held was gone.
  test('a job Redis lost with its data is queued again from its row, and runs once', async ({ assert, cleanup }) => {
    const { port } = await redisPort()
    let redis = await startRedisServer(port)
    const logger = quietLogger()
    const queue = await createQueue({ redisUrl: redis.url, prefix: uniquePrefix(), logger })
    const ran: number[] = []
    queue.register({
      name: 'test:lost',
      async handle(payload: { n: number }) {
        ran.push(payload.n)
      },
    })
    // Queued again 300 ms after it was queued, instead of a minute.
    const relay = new OutboxRelay(queue, logger, 5_000, 300)
    cleanup(async () => {
      await relay.stop()
      await queue.close()
      await redis.stop()
    })
    const row = () => db.from('job_outbox').where('idempotency_key', 'perdido:7').first()
    await db.transaction((trx) => stageJobs(trx, [{ name: 'test:lost', payload: { n: 7 }, key: 'perdido:7' }]))
    assert.equal(await relay.runOnce(), 1)
    assert.exists((await row())?.queued_at, 'queued, and kept until its job ends')

    // Redis restarts empty before any worker took the job.
    await redis.stop()
    redis = await startRedisServer(port)
    await queue.startWorker()
    await waitUntil(
      async () => {
        await relay.runOnce()
        return ran.length > 0
      },
      30_000,
      () => `the lost job to run again\n${logger.lines.join('\n')}`
    )
    await waitUntil(async () => !(await row()))
    // Its row gone with it, nothing is left to queue or run.
    assert.equal(await relay.runOnce(), 0)
    const left = await queue.counts()
    assert.equal(left.waiting + left.active + left.delayed, 0)
    assert.deepEqual(ran, [7], 'it ran once')
  }).timeout(60_000)
})
