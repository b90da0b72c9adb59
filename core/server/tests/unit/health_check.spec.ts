import { test } from '@japa/runner'
import { guarded } from '#lib/health_check'

test.group('a part of /health (lib/health_check.ts)', () => {
  test('its answer, its failure with the reason, or no answer within the limit', async ({ assert }) => {
    assert.deepEqual(await guarded('sqlite', async () => ({ ok: true, driver: 'sqlite' })), {
      ok: true,
      driver: 'sqlite',
    })
    assert.deepEqual(
      await guarded('redis', async () => {
        throw new Error('connection refused')
      }),
      { ok: false, driver: 'redis', detail: 'connection refused' }
    )
    // A check that never settles (a frozen server) is reported, not waited for.
    const never = () => new Promise<never>(() => {})
    assert.deepEqual(await guarded('s3', never, 50), { ok: false, driver: 's3', detail: 'no answer within 50 ms' })
  })

  test('a check that fails after its limit passed changes nothing and is not left unhandled', async ({ assert }) => {
    const unhandled: unknown[] = []
    const note = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', note)
    try {
      let fail: (error: Error) => void = () => {}
      const late = () => new Promise<never>((_, reject) => (fail = reject))
      const check = await guarded('mysql', late, 20)
      assert.equal(check.detail, 'no answer within 20 ms')
      fail(new Error('too late'))
      // Node reports an unhandled rejection once the microtasks after it have run: two turns of the loop.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(unhandled, [])
    } finally {
      process.off('unhandledRejection', note)
    }
  })
})
