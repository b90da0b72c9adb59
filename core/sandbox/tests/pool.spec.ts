import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createSandboxPool } from '../node/index.ts'
import { waitUntil } from '../../server/tests/helpers/wait.ts'

const codes = (results: { ok: boolean; error?: { code: string } }[]) =>
  results.map((r) => (r.ok ? 'ok' : r.error!.code))

test.group('node pool', () => {
  test('the watchdog replaces a worker stuck in native code and keeps serving', async ({ assert }) => {
    const pool = createSandboxPool({ size: 1, graceMs: 300 })
    assert.equal((await pool.run('1 + 1')).ok, true)
    const stuck = await pool.run("new Array(1e9) + ''", {}, { timeoutMs: 100 })
    assert.deepEqual(stuck, {
      ok: false,
      error: { code: 'SCRIPT_TIMEOUT', message: 'the script ran past its deadline' },
    })
    assert.equal(pool.stats().restarts, 1)
    assert.deepEqual(await pool.run('a + 1', { a: 1 }), { ok: true, value: 2, effects: [] })
    pool.dispose()
  })

  test('every call of a stuck batch times out; other workers keep answering', async ({ assert }) => {
    const pool = createSandboxPool({ size: 2, graceMs: 300 })
    const stuck = pool.runBatch([{ source: '1' }, { source: "new Array(1e9) + ''" }, { source: '3' }])
    const others = await Promise.all([1, 2, 3, 4].map((n) => pool.run(`${n} * 10`)))
    assert.deepEqual(
      others.map((r) => (r.ok ? r.value : null)),
      [10, 20, 30, 40]
    )
    assert.deepEqual(codes(await stuck), ['SCRIPT_TIMEOUT', 'SCRIPT_TIMEOUT', 'SCRIPT_TIMEOUT'])
    pool.dispose()
  })

  test('concurrent batches get their own results', async ({ assert }) => {
    const pool = createSandboxPool({ size: 2 })
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool.runBatch([{ source: 'n + 1' }, { source: 'n * 2' }], { n: i }))
    )
    assert.deepEqual(
      batches.map((b) => b.map((r) => (r.ok ? r.value : null))),
      Array.from({ length: 20 }, (_, i) => [i + 1, i * 2])
    )
    assert.equal(pool.stats().served, 20)
    pool.dispose()
  })

  test('host functions come from a module each worker imports', async ({ assert }) => {
    const pool = createSandboxPool({ size: 1, hostModule: new URL('./fixtures/host.ts', import.meta.url).href })
    assert.deepEqual(await pool.run('double(21)'), { ok: true, value: 42, effects: [] })
    pool.dispose()
  })

  test('a worker that cannot start answers with the reason instead of hanging', async ({ assert }) => {
    const pool = createSandboxPool({ size: 1, hostModule: 'file:///no/such/module.ts' })
    const r = await pool.run('1')
    assert.isFalse(r.ok)
    assert.match(r.ok ? '' : r.error.message, /no\/such\/module/)
    // The host's failure, not the script's: callers must not treat it as a script that returned false.
    assert.equal(r.ok ? '' : r.error.code, 'SANDBOX_UNAVAILABLE')
    pool.dispose()
  })

  test('dispose answers pending calls; later calls are refused', async ({ assert }) => {
    const pool = createSandboxPool({ size: 1 })
    const pending = pool.run('while (true) {}', {}, { timeoutMs: 5000 })
    await waitUntil(() => pool.stats().busy === 1, 10_000, 'the call running in a worker')
    pool.dispose()
    assert.deepEqual(await pending, {
      ok: false,
      error: { code: 'SANDBOX_UNAVAILABLE', message: 'the sandbox was disposed' },
    })
    await assert.rejects(() => pool.run('1'), /disposed/)
  })

  test('idle workers do not keep a process alive', async ({ assert }) => {
    const script = fileURLToPath(new URL('./fixtures/idle-pool.ts', import.meta.url))
    const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, script], { timeout: 20_000 })
    assert.equal(stdout.trim(), '{"ok":true,"value":42,"effects":[]}')
  })
})
