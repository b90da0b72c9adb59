import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '../src/index.ts'
import { createSandboxPool, type ScriptPool } from '../node/index.ts'
import { attack, CASES } from './cases.ts'

test.group('attacks: in process', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('{name}')
    .with(CASES.filter((c) => !c.needsWatchdog))
    .run(async ({ assert, test: self }, c) => {
      const { problems, ms } = await attack(runner, c)
      // Elapsed time is reported, not asserted (no timed assertions in tests).
      self.options.title += ` (${Math.round(ms)} ms)`
      assert.deepEqual(problems, [])
    })

  test("new Array(1e9) + '' ends by itself (native work the interrupt cannot reach)", async ({ assert }) => {
    const c = CASES.find((x) => x.needsWatchdog)!
    assert.deepEqual((await attack(runner, c)).problems, [])
  }).timeout(180_000)
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
      self.options.title += ` (${Math.round(ms)} ms)`
      assert.deepEqual(problems, [])
    })
})
