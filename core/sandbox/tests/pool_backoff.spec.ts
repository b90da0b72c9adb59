import { test } from '@japa/runner'
import { createPool, type Spawn } from '../src/pool.ts'

/** Workers that die before they are ready, counted: what a host without a loadable sandbox gets. */
function dyingWorkers() {
  let spawned = 0
  const spawn: Spawn = (events) => {
    spawned++
    return {
      post: () => setTimeout(() => events.gone('cannot load the sandbox'), 1),
      terminate: () => undefined,
    }
  }
  return { spawn, spawned: () => spawned }
}

test.group('sandbox pool restarts', () => {
  test('after a worker dies before it is ready, calls are refused at once until the back-off ends', async ({
    assert,
  }) => {
    const workers = dyingWorkers()
    let clock = 0
    const pool = createPool(workers.spawn, { size: 2, restartBackoffMs: 200, now: () => clock })
    const first = await pool.run('1')
    assert.deepInclude(first, { ok: false })
    assert.equal(first.ok ? '' : first.error.code, 'SANDBOX_UNAVAILABLE')
    const started = workers.spawned()
    for (let i = 0; i < 20; i++) {
      const r = await pool.run('1')
      assert.equal(r.ok ? '' : r.error.code, 'SANDBOX_UNAVAILABLE')
    }
    assert.equal(workers.spawned(), started, 'no worker started during the back-off')
    // Both workers died, so the back-off doubled once: 400 ms, on the pool's (fake) clock.
    clock = 399
    await pool.run('1')
    assert.equal(workers.spawned(), started, 'still cooling 1 ms before the back-off ends')
    clock = 400
    await pool.run('1')
    assert.isAbove(workers.spawned(), started, 'tried again once the back-off ended')
    pool.dispose()
  })
})
