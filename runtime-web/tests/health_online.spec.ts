import { test } from '@japa/runner'
import { parseHealth } from '../src/lib/health.js'
import { probeOnline } from '../src/lib/online.js'

const up = { ok: true, driver: 'x' }

test.group('parseHealth', () => {
  test('reads the /health answer', ({ assert }) => {
    const summary = parseHealth({
      status: 'ok',
      checks: { database: { ok: true, driver: 'sqlite' }, queue: up, storage: up, sockets: up },
    })
    assert.isTrue(summary?.ok)
    assert.deepEqual(summary?.checks.database, { ok: true, driver: 'sqlite' })
  })

  test('degraded or missing checks are not ok', ({ assert }) => {
    const degraded = parseHealth({
      status: 'degraded',
      checks: { database: up, queue: { ok: false, driver: 'bullmq' }, storage: up, sockets: up },
    })
    assert.isFalse(degraded?.ok)
    assert.isFalse(degraded?.checks.queue.ok)
    const partial = parseHealth({ status: 'ok', checks: { database: up } })
    assert.isFalse(partial?.ok)
    assert.deepEqual(partial?.checks.sockets, { ok: false, driver: '' })
  })

  test('anything else is not a health answer', ({ assert }) => {
    assert.isNull(parseHealth(null))
    assert.isNull(parseHealth({ status: 'fail', message: 'x' }))
    assert.isNull(parseHealth('ok'))
  })
})

test.group('probeOnline', () => {
  test('sends HEAD / without cache; any answer is online, a network error offline', async ({ assert }) => {
    const seen: [string, RequestInit][] = []
    const online = await probeOnline(async (input, init) => {
      seen.push([input, init])
      return { status: 503 }
    })
    assert.isTrue(online)
    assert.equal(seen[0]![0], '/')
    assert.equal(seen[0]![1].method, 'HEAD')
    assert.equal(seen[0]![1].cache, 'no-store')
    assert.isFalse(
      await probeOnline(async () => {
        throw new TypeError('fetch failed')
      })
    )
  })
})
