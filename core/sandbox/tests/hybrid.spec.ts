import { test } from '@japa/runner'
import { asRunner, createHybridRunner, createSandbox, type Compiled, type ScriptRunner } from '../src/index.ts'

/**
 * The routing of the hybrid runner: what the interpreter takes never reaches QuickJS, the rest does, and
 * QuickJS loads only when a script needs it. The interpreter here takes only a number literal, so that
 * which side answered is known; QuickJS is the real sandbox.
 */
const numbersOnly = (source: string): Compiled =>
  /^\s*-?\d+(\.\d+)?\s*$/.test(source)
    ? { run: () => ({ ok: true, value: Number(source), effects: [] }) }
    : { refused: 'not a number literal' }

function counted() {
  const loads = { n: 0 }
  const load = async (): Promise<ScriptRunner> => {
    loads.n++
    return asRunner(await createSandbox())
  }
  return { loads, load }
}

test.group('hybrid runner', () => {
  test('a batch the interpreter takes whole never loads QuickJS', async ({ assert }) => {
    const { loads, load } = counted()
    const runner = createHybridRunner(numbersOnly, load)
    const results = await runner.runBatch([{ source: '1' }, { source: '2.5' }])
    assert.deepEqual(
      results.map((r) => (r.ok ? r.value : null)),
      [1, 2.5]
    )
    assert.equal(loads.n, 0)
    assert.isFalse(runner.needsQuickJS(['3', ' 4 ']))
    assert.deepEqual(runner.counts, { interpreted: 2, quickjs: 0 })
  })

  test('a mixed batch: the rest goes to QuickJS in one call, results in the calls’ order', async ({
    assert,
    cleanup,
  }) => {
    const { loads, load } = counted()
    const runner = createHybridRunner(numbersOnly, load)
    cleanup(() => runner.dispose())
    assert.isTrue(runner.needsQuickJS(['1', 'a + b']))
    const results = await runner.runBatch(
      [{ source: '7' }, { source: 'a + b', vars: { b: 2 } }, { source: '8' }, { source: 'a * 10' }],
      { a: 1 }
    )
    assert.deepEqual(
      results.map((r) => (r.ok ? r.value : r.error.message)),
      [7, 3, 8, 10]
    )
    await runner.run('a', { a: 5 })
    assert.equal(loads.n, 1, 'QuickJS loaded once')
    assert.deepEqual(runner.counts, { interpreted: 2, quickjs: 3 })
  })

  test('a call’s own variable left undefined does not hide the shared one, as in the sandbox', async ({ assert }) => {
    const seen: unknown[] = []
    const runner = createHybridRunner(
      () => ({ run: (vars) => (seen.push(vars.a), { ok: true, value: null, effects: [] }) }),
      () => Promise.reject(new Error('not needed'))
    )
    await runner.runBatch([{ source: 'a', vars: { a: undefined } as unknown as Record<string, never> }], { a: 1 })
    assert.deepEqual(seen, [1])
  })

  test('warm() starts loading QuickJS before any script needs it', async ({ assert, cleanup }) => {
    const { loads, load } = counted()
    const runner = createHybridRunner(numbersOnly, load)
    cleanup(() => runner.dispose())
    runner.warm()
    assert.equal(loads.n, 1)
    assert.equal((await runner.run('"hola"')).ok, true)
    assert.equal(loads.n, 1)
  })
})
