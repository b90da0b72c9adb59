import { test } from '@japa/runner'
import type { Queue } from '../../app/jobs/types.js'
import { KEEP_COMPLETED } from '../../app/jobs/backoff.js'
import { MAX_DEFERRALS, RunLater } from '../../app/jobs/run_later.js'
import { deferred, openQueue, removeKeys, sleep, uniquePrefix, type Driver } from './helpers.js'
import { waitUntil } from '#tests/helpers/wait'

/** The behaviour both drivers share; each spec file runs it against one driver. */
export function queueContract(driver: Driver): void {
  test.group(`Queue (${driver} driver)`, (group) => {
    group.each.timeout(30_000)

    /** A fresh queue under its own prefix, closed (and its Redis keys removed) after the test. */
    async function fresh(cleanup: (fn: () => Promise<void>) => void): Promise<Queue> {
      const prefix = uniquePrefix()
      const queue = await openQueue(driver, prefix)
      cleanup(async () => {
        await queue.close()
        if (driver === 'redis') await removeKeys(prefix)
      })
      return queue
    }

    test('a job runs and returns its result', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      assert.equal(queue.driver, driver)
      const seen: Array<{ id: string; name: string; attempt: number; aborted: boolean }> = []
      queue.register({
        name: 'test:add',
        async handle(payload: { a: number; b: number }, ctx) {
          seen.push({ id: ctx.id, name: ctx.name, attempt: ctx.attempt, aborted: ctx.signal.aborted })
          return { sum: payload.a + payload.b }
        },
      })
      await queue.startWorker()
      const { id } = await queue.enqueue('test:add', { a: 2, b: 3 })

      const outcome = await queue.waitFor(id, 20_000)

      assert.deepEqual(outcome, { state: 'completed', result: { sum: 5 }, attempts: 1 })
      assert.deepEqual(seen, [{ id, name: 'test:add', attempt: 1, aborted: false }])
      assert.isTrue((await queue.health()).ok)
    })

    test('a job failing twice then succeeding is retried with exponential backoff', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const runs: Array<{ at: number; attempt: number }> = []
      queue.register({
        name: 'test:flaky',
        attempts: 3,
        backoffMs: 100,
        async handle(_payload, ctx) {
          runs.push({ at: Date.now(), attempt: ctx.attempt })
          if (runs.length < 3) throw new Error(`flaky failure ${runs.length}`)
          return 'third time lucky'
        },
      })
      await queue.startWorker()
      const { id } = await queue.enqueue('test:flaky', {})

      const outcome = await queue.waitFor(id, 20_000)

      assert.deepEqual(outcome, { state: 'completed', result: 'third time lucky', attempts: 3 })
      assert.deepEqual(
        runs.map((run) => run.attempt),
        [1, 2, 3]
      )
      // base 100 ms: about 100 ms before the 2nd run, about 200 ms before the 3rd (lower bounds only; 5% for clocks).
      const gaps = [runs[1]!.at - runs[0]!.at, runs[2]!.at - runs[1]!.at]
      assert.isAtLeast(gaps[0]!, 95, `first gap ${gaps[0]} ms`)
      assert.isAtLeast(gaps[1]!, 190, `second gap ${gaps[1]} ms`)
    })

    test('a run put off (RunLater) runs again at its time without spending an attempt', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const runs: number[] = []
      queue.register({
        name: 'test:later',
        attempts: 1,
        async handle() {
          runs.push(Date.now())
          if (runs.length === 1) throw new RunLater(Date.now() + 300, 'another run holds it')
          return 'my turn'
        },
      })
      await queue.startWorker()
      const { id } = await queue.enqueue('test:later', {})

      const outcome = await queue.waitFor(id, 20_000)

      // With one attempt, an ordinary failure would have ended it failed.
      assert.deepEqual(outcome, { state: 'completed', result: 'my turn', attempts: 2 })
      assert.isAtLeast(runs[1]! - runs[0]!, 285, `put off ${runs[1]! - runs[0]!} ms`)
    })

    test('a job put off without end fails after MAX_DEFERRALS, as an error would', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      let runs = 0
      queue.register({
        name: 'test:never',
        attempts: 2,
        backoffMs: 10,
        async handle() {
          runs++
          throw new RunLater(Date.now(), 'never my turn')
        },
      })
      await queue.startWorker()
      const { id } = await queue.enqueue('test:never', {})

      const outcome = await queue.waitFor(id, 20_000)

      assert.equal(outcome.state, 'failed')
      assert.equal(outcome.error, 'never my turn')
      // MAX_DEFERRALS runs put off, then both attempts spent.
      assert.equal(runs, MAX_DEFERRALS + 2)
    })

    test('onSettled hears of each job that ended, by the jobId it was given', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const settled: string[] = []
      queue.onSettled(async (id) => {
        settled.push(id)
      })
      queue.register({
        name: 'test:settles',
        backoffMs: 10,
        async handle(payload: { fail: boolean }) {
          if (payload.fail) throw new Error('no')
        },
      })
      await queue.startWorker()
      // A colon, a percent sign and a number alone are the ids BullMQ escapes.
      const ids = ['aviso:1%', '42']
      await queue.enqueue('test:settles', { fail: false }, { jobId: ids[0] })
      await queue.enqueue('test:settles', { fail: true }, { jobId: ids[1], attempts: 2 })
      for (const id of ids) await queue.waitFor(id, 20_000)
      await waitUntil(() => settled.length >= 2)
      assert.deepEqual([...settled].sort(), [...ids].sort(), 'once each, completed or failed for good')
    })

    test('a job that always fails ends failed after its attempts, with its error', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      let runs = 0
      queue.register({
        name: 'test:broken',
        backoffMs: 10,
        async handle() {
          runs++
          throw new Error('the scanner is on fire')
        },
      })
      await queue.startWorker()

      const byDefault = await queue.enqueue('test:broken', {})
      const outcome = await queue.waitFor(byDefault.id, 20_000)
      assert.deepEqual(outcome, { state: 'failed', error: 'the scanner is on fire', attempts: 3 })
      assert.equal(runs, 3)

      runs = 0
      const overridden = await queue.enqueue('test:broken', {}, { attempts: 2 })
      const second = await queue.waitFor(overridden.id, 20_000)
      assert.deepEqual(second, { state: 'failed', error: 'the scanner is on fire', attempts: 2 })
      assert.equal(runs, 2)
    })

    test('the same jobId enqueued twice runs once', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const runs: string[] = []
      queue.register({
        name: 'test:once',
        async handle(payload: { n: number }) {
          runs.push(`once ${payload.n}`)
          return payload.n
        },
      })
      queue.register({
        name: 'test:sentinel',
        async handle() {
          runs.push('sentinel')
        },
      })
      // A plugin-style key with ':' and an integer-looking key are both accepted.
      const first = await queue.enqueue('test:once', { n: 1 }, { jobId: 'case-42:ocr' })
      const again = await queue.enqueue('test:once', { n: 2 }, { jobId: 'case-42:ocr' })
      const numeric = await queue.enqueue('test:once', { n: 3 }, { jobId: '42' })
      const numericAgain = await queue.enqueue('test:once', { n: 4 }, { jobId: '42' })
      assert.equal(again.id, first.id)
      assert.equal(numericAgain.id, numeric.id)

      // One at a time, in order: once the sentinel (queued last) is done, nothing else is left to run.
      await queue.startWorker({ concurrency: 1 })
      const outcome = await queue.waitFor('case-42:ocr', 20_000)
      assert.deepEqual(outcome, { state: 'completed', result: 1, attempts: 1 })
      const late = await queue.enqueue('test:once', { n: 5 }, { jobId: 'case-42:ocr' })
      assert.equal(late.id, first.id)
      const sentinel = await queue.enqueue('test:sentinel', {})
      await queue.waitFor(sentinel.id, 20_000)

      assert.deepEqual(runs, ['once 1', 'once 3', 'sentinel'])
      assert.deepEqual(await queue.waitFor(numeric.id), { state: 'completed', result: 3, attempts: 1 })
    })

    test('uniqueForMs: a scheduled id runs once even after the queue dropped the finished job', async ({
      assert,
      cleanup,
    }) => {
      const queue = await fresh(cleanup)
      const runs: string[] = []
      queue.register({ name: 'test:hourly', handle: async (payload: { id: string }) => void runs.push(payload.id) })
      queue.register({ name: 'test:filler', handle: async () => {} })
      await queue.startWorker({ concurrency: 50 })
      const scheduled = await queue.enqueue('test:hourly', { id: 'unique' }, { jobId: 'h:unique', uniqueForMs: 60_000 })
      const plain = await queue.enqueue('test:hourly', { id: 'plain' }, { jobId: 'h:plain' })
      await queue.waitFor(scheduled.id, 20_000)
      await queue.waitFor(plain.id, 20_000)
      // More finished jobs than the queue keeps: both hourly jobs are dropped from its memory.
      const fillers = await Promise.all(
        Array.from({ length: KEEP_COMPLETED + 20 }, () => queue.enqueue('test:filler', {}))
      )
      await Promise.all(fillers.map((f) => queue.waitFor(f.id, 20_000).catch(() => undefined)))
      await queue.waitFor(scheduled.id).then(
        () => assert.fail('the finished job should no longer be kept'),
        () => undefined
      )

      // Another node enqueues both again: the plain id runs a second time, the unique one does not.
      const again = [
        await queue.enqueue('test:hourly', { id: 'unique' }, { jobId: 'h:unique', uniqueForMs: 60_000 }),
        await queue.enqueue('test:hourly', { id: 'plain' }, { jobId: 'h:plain' }),
      ]
      await queue.waitFor(again[1]!.id, 20_000)
      const sentinel = await queue.enqueue('test:filler', {})
      await queue.waitFor(sentinel.id, 20_000)
      assert.deepEqual(runs.sort(), ['plain', 'plain', 'unique'])
    })

    test('an unknown job name is a clear error', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const job = { name: 'test:known', handle: async () => 'ok' }
      queue.register(job)
      assert.throws(() => queue.register(job), 'Job "test:known" is already registered')
      assert.deepEqual(queue.names(), ['test:known'])

      await assert.rejects(
        () => queue.enqueue('test:unknown', {}),
        'Unknown job "test:unknown": register it first (registered jobs: test:known)'
      )
      await assert.rejects(() => queue.waitFor('no-such-job'), /Unknown job id "no-such-job"/)
    })

    test('graceful stop waits for a running job to finish', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const started = deferred()
      const events: string[] = []
      queue.register({
        name: 'test:slow',
        async handle(_payload, ctx) {
          events.push('started')
          started.resolve()
          await sleep(400)
          events.push(ctx.signal.aborted ? 'aborted' : 'finished')
          return 'done'
        },
      })
      await queue.startWorker()
      const { id } = await queue.enqueue('test:slow', {})
      await started.promise

      await queue.stopWorker()
      events.push('stopped')

      assert.deepEqual(events, ['started', 'finished', 'stopped'])
      assert.deepEqual(await queue.waitFor(id, 20_000), { state: 'completed', result: 'done', attempts: 1 })
    })

    test('a stopped worker takes no new jobs until started again', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      let runs = 0
      queue.register({ name: 'test:count', handle: async () => ++runs })
      await queue.startWorker()
      await queue.waitFor((await queue.enqueue('test:count', {})).id, 20_000)
      await queue.stopWorker()

      // No worker is left to take it (a running one would: memory starts it within enqueue, and BullMQ lists
      // its workers), so the job stays waiting in the queue's own state and has not run.
      const { id } = await queue.enqueue('test:count', {})
      assert.deepEqual(await queue.counts(), { waiting: 1, active: 0, delayed: 0, workers: 0 })
      assert.equal(runs, 1)

      await queue.startWorker()
      assert.deepEqual(await queue.waitFor(id, 20_000), { state: 'completed', result: 2, attempts: 1 })
      assert.deepEqual(await queue.counts(), { waiting: 0, active: 0, delayed: 0, workers: 1 })
    })

    test('a delayed job waits at least its delay', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      let ranAt = 0
      queue.register({ name: 'test:later', handle: async () => void (ranAt = Date.now()) })
      await queue.startWorker()
      const enqueuedAt = Date.now()
      const { id } = await queue.enqueue('test:later', {}, { delayMs: 250 })

      assert.equal((await queue.waitFor(id, 20_000)).state, 'completed')
      assert.isAtLeast(ranAt - enqueuedAt, 240)
    })

    test('concurrency: the worker limit and a job type limit both hold', async ({ assert, cleanup }) => {
      const queue = await fresh(cleanup)
      const running = { any: 0, maxAny: 0, narrow: 0, maxNarrow: 0 }
      const work = async (narrow: boolean) => {
        running.any++
        running.maxAny = Math.max(running.maxAny, running.any)
        if (narrow) running.maxNarrow = Math.max(running.maxNarrow, ++running.narrow)
        await sleep(60)
        if (narrow) running.narrow--
        running.any--
      }
      queue.register({ name: 'test:wide', handle: () => work(false) })
      queue.register({ name: 'test:narrow', concurrency: 1, handle: () => work(true) })
      const ids: string[] = []
      for (let i = 0; i < 4; i++) ids.push((await queue.enqueue('test:narrow', {})).id)
      for (let i = 0; i < 6; i++) ids.push((await queue.enqueue('test:wide', {})).id)

      await queue.startWorker({ concurrency: 3 })
      for (const id of ids) assert.equal((await queue.waitFor(id, 20_000)).state, 'completed')

      assert.equal(running.maxNarrow, 1)
      assert.isAtMost(running.maxAny, 3)
    })
  })
}
