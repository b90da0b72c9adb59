import { test } from '@japa/runner'
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import debugVariant from '@jitl/quickjs-singlefile-mjs-debug-sync'
import { createSandboxWith } from '../src/sandbox.ts'

// Scripts that touch every path: values, effects, errors, promises, missing variables. No cycles:
// cyclic garbage waits for QuickJS's collector and would blur the object count.
const SOURCES = [
  'a + 1',
  "setValue('x', a); setState('y', { see: true }); return { a, list: [a, a] }",
  'Promise.resolve(a)',
  '(async () => { await null; return a })()',
  'missing',
  "value('also missing')",
  "throw new Error('x')",
  "formatNumber(a, 2) + formatDate(a, 'YYYY')",
  'new Promise(() => {})',
]

test.group('handles', () => {
  test('10,000 runs leave no handle, object or allocation behind', async ({ assert }) => {
    const sandbox = await createSandboxWith({})
    const run = (i: number) => sandbox.run(SOURCES[i % SOURCES.length]!, { a: i })
    for (let i = 0; i < 100; i++) run(i)
    const before = { ...sandbox.stats(), ...sandbox.heap() }
    for (let i = 0; i < 10_000; i++) run(i)
    const after = { ...sandbox.stats(), ...sandbox.heap() }
    assert.equal(after.runs - before.runs, 10_000)
    assert.equal(after.liveHandles, before.liveHandles)
    assert.equal(after.objects, before.objects)
    assert.equal(after.allocations, before.allocations)
    // QuickJS asserts, while freeing the runtime, that no object is still referenced.
    sandbox.dispose()
    assert.deepEqual([sandbox.stats().liveHandles, sandbox.stats().faults, sandbox.stats().rebuilds], [0, 0, 0])
  }).timeout(120_000)

  test("the debug build's leak sanitizer finds nothing after 2,000 runs", async ({ assert }) => {
    const modules: QuickJSWASMModule[] = []
    // Deadlines that never fire: the debug build is slow, and on a busy machine a setup or a run cut
    // short would count as a fault here (the deadlines' own paths are tested apart).
    const sandbox = await createSandboxWith({ timeoutMs: 60_000 }, async () => {
      const m = await newQuickJSWASMModuleFromVariant(debugVariant)
      modules.push(m)
      return m
    })
    for (let i = 0; i < 2_000; i++) sandbox.run(SOURCES[i % SOURCES.length]!, { a: i })
    sandbox.runBatch(
      SOURCES.map((source) => ({ source })),
      { a: 1 }
    )
    sandbox.dispose()
    assert.equal(sandbox.stats().faults, 0)
    for (const m of modules) assert.equal(m.getFFI().QTS_RecoverableLeakCheck(), 0)
  }).timeout(120_000)
})
