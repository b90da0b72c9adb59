import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { Redis } from 'ioredis'
import { waitUntil } from '#tests/helpers/wait'
import { REDIS_URL, openQueue, removeKeys, uniquePrefix } from './helpers.js'

const FIXTURE = fileURLToPath(new URL('./fixtures/stalling_worker.ts', import.meta.url))
const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url))

test.group('Queue (redis driver): dead workers', () => {
  test('a job whose worker is killed mid-job runs again on another worker', async ({ assert, cleanup }) => {
    const prefix = uniquePrefix()
    const markersKey = `${prefix}:markers`
    const redis = new Redis(REDIS_URL)
    const queue = await openQueue('redis', prefix, { stalledIntervalMs: 1000 })
    let output = ''
    const child = spawn(process.execPath, ['--import', '@tramita/ts-run', FIXTURE], {
      cwd: SERVER_ROOT,
      env: { ...process.env, REDIS_URL, QUEUE_TEST_PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const exited = once(child, 'exit')
    cleanup(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
      await queue.close()
      await removeKeys(prefix)
      redis.disconnect()
    })

    queue.register({
      name: 'test:stall',
      async handle(_payload, ctx) {
        await redis.rpush(markersKey, `test:${ctx.attempt}`)
        return 'finished in the test process'
      },
    })
    const { id } = await queue.enqueue('test:stall', { document: 7 })

    // Wait until the child has started the job (well within the test's own timeout).
    await waitUntil(async () => {
      if (child.exitCode !== null) assert.fail(`The worker child exited early (${child.exitCode}):\n${output}`)
      return (await redis.llen(markersKey)) > 0
    }, 50_000)
    child.kill('SIGKILL')
    const [, signal] = await exited
    assert.equal(signal, 'SIGKILL')

    await queue.startWorker()
    const outcome = await queue.waitFor(id, 60_000)

    assert.deepEqual(outcome, { state: 'completed', result: 'finished in the test process', attempts: 2 })
    assert.deepEqual(await redis.lrange(markersKey, 0, -1), ['child:1', 'test:2'])
  }).timeout(90_000)
})
