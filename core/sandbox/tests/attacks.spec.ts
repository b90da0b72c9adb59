import { test } from '@japa/runner'
import { asRunner, createSandbox, type Sandbox, type ScriptRunner } from '../src/index.ts'
import { createSandboxPool, type ScriptPool } from '../node/index.ts'
import { attack, CASES } from './cases.ts'

test.group('attacks: in process', (group) => {
  let sandbox: Sandbox
  let runner: ScriptRunner
  group.setup(async () => {
    sandbox = await createSandbox()
    runner = asRunner(sandbox)
    return () => runner.dispose()
  })

  test('{name}')
    .with(CASES.filter((c) => !c.needsWatchdog))
    .run(async ({ assert, test: self }, c) => {
      const { problems, ms } = await attack(runner, c)
      // Elapsed time is reported in the title, not asserted (no timed assertions in tests).
      self.options.title = `{name} (${Math.round(ms)} ms)`
      assert.deepEqual(problems, [])
    })

  test("new Array(1e9) + '' ends by itself (native work the interrupt cannot reach)", async ({ assert }) => {
    const c = CASES.find((x) => x.needsWatchdog)!
    assert.deepEqual((await attack(runner, c)).problems, [])
  }).timeout(180_000)

  test("QuickJS's stack limit stopped every recursion before the native stack ran out", ({ assert }) => {
    assert.equal(sandbox.stats().faults, 0)
  })
})

test.group('attacks: in the worker pool', (group) => {
  let pool: ScriptPool
  group.setup(() => {
    // One worker, so each follow-up runs where the attack ran.
    pool = createSandboxPool({ size: 1, graceMs: 500 })
    return () => pool.dispose()
  })

  test('{name}')
    .with(CASES)
    .run(async ({ assert, test: self }, c) => {
      const { problems, ms } = await attack(pool, c)
      self.options.title = `{name} (${Math.round(ms)} ms)`
      assert.deepEqual(problems, [])
    })

  test('no wasm fault in the workers, one watchdog restart', ({ assert }) => {
    assert.deepInclude(pool.stats(), { faults: 0, restarts: 1, crashes: 0 })
  })
})
