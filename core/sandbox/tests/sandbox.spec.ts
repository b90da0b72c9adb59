import { test } from '@japa/runner'
import { createSandbox, formatDate, type Sandbox, type ScriptResult } from '../src/index.ts'
import { waitUntil } from '../../server/tests/helpers/wait.ts'

const value = (r: ScriptResult) => (r.ok ? r.value : `error ${r.error.code}: ${r.error.message}`)

test.group('sandbox: scripts', (group) => {
  let sandbox: Sandbox
  group.setup(async () => {
    sandbox = await createSandbox()
    return () => sandbox.dispose()
  })

  test('an expression reads variables by their bare names', ({ assert }) => {
    assert.isTrue(value(sandbox.run("edad > 18 && ciudad == 'X'", { edad: 20, ciudad: 'X' })))
    assert.isFalse(value(sandbox.run("edad > 18 && ciudad == 'X'", { edad: 20, ciudad: 'Y' })))
  })

  test('statements run as a function body; return gives the value', ({ assert }) => {
    assert.equal(
      value(sandbox.run('let total = 0; for (const x of xs) total += x; return total', { xs: [1, 2, 3] })),
      6
    )
    assert.isNull(value(sandbox.run('let x = 1')))
  })

  test('scripts run in strict mode', ({ assert }) => {
    assert.isNull(value(sandbox.run('(function () { return this })()')))
  })

  test('a missing variable gives a variable-not-found message', ({ assert }) => {
    assert.deepEqual(sandbox.run('edad > 18', {}), {
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: "variable 'edad' not found" },
    })
    assert.deepEqual(sandbox.run("value('nombre completo')"), {
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: "variable 'nombre completo' not found" },
    })
  })

  test('value() reads names that are not identifiers', ({ assert }) => {
    assert.equal(value(sandbox.run("value('nombre completo')", { 'nombre completo': 'Ana' })), 'Ana')
  })

  test('effects come back in call order', ({ assert }) => {
    const r = sandbox.run(
      "setValue('a', 1); setState('b', { natural: 'readonly', see: false }); setOptions('c', [1, 2]); setStyle('d', { color: 'red' }); setValue('a', 2); return 'done'"
    )
    assert.deepEqual(r, {
      ok: true,
      value: 'done',
      effects: [
        { op: 'setValue', field: 'a', value: 1 },
        { op: 'setState', field: 'b', state: { natural: 'readonly', see: false } },
        { op: 'setOptions', field: 'c', options: [1, 2] },
        { op: 'setStyle', field: 'd', style: { color: 'red' } },
        { op: 'setValue', field: 'a', value: 2 },
      ],
    })
  })

  test('effects are checked: field names, states, JSON values', ({ assert }) => {
    assert.match(String(value(sandbox.run("setState('b', { natural: 'hidden' })"))), /natural must be/)
    assert.match(String(value(sandbox.run("setState('b', { see: 'yes' })"))), /see must be true or false/)
    assert.match(String(value(sandbox.run('setValue(1, 2)'))), /field name/)
    assert.match(String(value(sandbox.run("setValue('a', () => 1)"))), /not JSON/)
  })

  test('a failed script reports no effects, only its error', ({ assert }) => {
    assert.deepEqual(sandbox.run("setValue('a', 1); throw new Error('no')"), {
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: 'Error: no' },
    })
  })

  test('now() is the host clock, fixed for the call', ({ assert }) => {
    const before = Date.now()
    const r = sandbox.run('[now(), now()]')
    const [a, b] = value(r) as number[]
    assert.equal(a, b)
    assert.isAtLeast(a!, before)
    assert.isAtMost(a!, Date.now())
  })

  test('formatting helpers use the host Intl', ({ assert }) => {
    const r = sandbox.run(
      "[formatNumber(1234.5, 2), formatNumber(1234.5, 0, 'en-US'), formatMoney(1234.5), formatMoney(9.5, 'en-US', 'USD')]"
    )
    assert.deepEqual(value(r), [
      new Intl.NumberFormat('es-CO', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1234.5),
      '1,235',
      new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP' }).format(1234.5),
      '$9.50',
    ])
  })

  test('formatDate takes a pattern and a time zone', ({ assert }) => {
    const at = Date.UTC(2024, 1, 9, 15, 4, 5, 7)
    assert.equal(value(sandbox.run(`formatDate(${at}, undefined, 'UTC')`)), '2024/02/09 15:04:05')
    assert.equal(
      value(sandbox.run(`formatDate(${at}, 'D/M/YY h:m:s.SSS A [at] HH', 'UTC')`)),
      '9/2/24 3:4:5.007 PM at 15'
    )
    assert.equal(
      value(sandbox.run("formatDate('2024-02-09T15:04:05Z', 'YYYY-MM-DD HH:mm', 'America/Bogota')")),
      '2024-02-09 10:04'
    )
    assert.equal(value(sandbox.run(`formatDate(${at})`)), formatDate(at))
    assert.match(String(value(sandbox.run("formatDate('not a date')"))), /formatDate\(\): not a date/)
  })

  test('results cross as JSON: undefined is null, a function is an error', ({ assert }) => {
    assert.isNull(value(sandbox.run('undefined')))
    assert.deepEqual(value(sandbox.run('({ a: [1, { b: null }], c: undefined })')), { a: [1, { b: null }] })
    assert.deepEqual(sandbox.run('() => 1'), {
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: 'TypeError: the value is not JSON (a function)' },
    })
  })

  test('a promise result is awaited; effects after an await count', ({ assert }) => {
    assert.equal(value(sandbox.run('Promise.resolve(7)')), 7)
    assert.deepEqual(sandbox.run("(async () => { await null; setValue('x', 1); return 8 })()"), {
      ok: true,
      value: 8,
      effects: [{ op: 'setValue', field: 'x', value: 1 }],
    })
    assert.equal(value(sandbox.run("Promise.reject(new Error('no'))")), 'error SCRIPT_ERROR: Error: no')
  })

  test('a thrown value that is not an Error is described', ({ assert }) => {
    assert.equal(value(sandbox.run("throw 'boom'")), 'error SCRIPT_ERROR: uncaught boom')
    assert.equal(value(sandbox.run('throw { code: 1 }')), 'error SCRIPT_ERROR: uncaught {"code":1}')
  })

  test('a syntax error fails the call without reaching QuickJS', ({ assert }) => {
    const compiled = sandbox.stats().compiled
    assert.equal(value(sandbox.run('if (x) {')), 'error SCRIPT_ERROR: SyntaxError: Unexpected token (1:8)')
    assert.equal(sandbox.stats().compiled, compiled)
  })

  test('variables are frozen: a script cannot change what it was given', ({ assert }) => {
    assert.match(String(value(sandbox.run('o.a = 2', { o: { a: 1 } }))), /^error SCRIPT_ERROR: TypeError/)
    assert.deepEqual(value(sandbox.run('[...lista, 4]', { lista: [1, 2, 3] })), [1, 2, 3, 4])
  })
})

test.group('sandbox: runBatch', (group) => {
  let sandbox: Sandbox
  group.setup(async () => {
    sandbox = await createSandbox()
    return () => sandbox.dispose()
  })

  test('shared vars reach every call; a call’s own vars override them', ({ assert }) => {
    const results = sandbox.runBatch(
      [{ source: 'a + b' }, { source: 'a + b', vars: { a: 10 } }, { source: 'c', vars: { c: 'own' } }],
      { a: 1, b: 2 }
    )
    assert.deepEqual(results.map(value), [3, 12, 'own'])
  })

  test('one call’s error does not touch the others', ({ assert }) => {
    const results = sandbox.runBatch(
      [
        { source: 'a' },
        { source: 'missing' },
        { source: "throw new Error('x')" },
        { source: 'if (' },
        { source: 'a * 2' },
      ],
      { a: 2 }
    )
    assert.deepEqual(results.map(value), [
      2,
      "error SCRIPT_ERROR: variable 'missing' not found",
      'error SCRIPT_ERROR: Error: x',
      'error SCRIPT_ERROR: SyntaxError: Unexpected token (1:4)',
      4,
    ])
  })

  test('a mutation attempt in one call is not seen by the next', ({ assert }) => {
    const results = sandbox.runBatch([{ source: 'o.a = 5' }, { source: 'o.a' }], { o: { a: 1 } })
    assert.isFalse(results[0]!.ok)
    assert.equal(value(results[1]!), 1)
  })

  test('the batch shares one deadline: finished calls keep their results', ({ assert }) => {
    const results = sandbox.runBatch(
      [{ source: '1' }, { source: 'while (true) {}' }, { source: '3' }],
      {},
      { timeoutMs: 50 }
    )
    assert.deepEqual(
      results.map((r) => (r.ok ? r.value : r.error.code)),
      [1, 'SCRIPT_TIMEOUT', 'SCRIPT_TIMEOUT']
    )
    assert.equal(value(sandbox.run('1 + 1')), 2)
  })

  test('effects belong to their own call', ({ assert }) => {
    const results = sandbox.runBatch([{ source: "setValue('a', 1)" }, { source: '2' }, { source: "setValue('b', 3)" }])
    assert.deepEqual(
      results.map((r) => (r.ok ? r.effects.map((e) => e.field) : [])),
      [['a'], [], ['b']]
    )
  })

  test('an empty batch is empty', ({ assert }) => {
    assert.deepEqual(sandbox.runBatch([]), [])
  })
})

test.group('sandbox: cache, host functions, lifecycle', () => {
  test('each distinct source compiles once', async ({ assert }) => {
    const sandbox = await createSandbox()
    for (let i = 0; i < 5; i++) sandbox.runBatch([{ source: 'a + 1' }, { source: 'a + 2' }], { a: i })
    assert.deepEqual({ compiled: sandbox.stats().compiled, runs: sandbox.stats().runs }, { compiled: 2, runs: 10 })
    sandbox.dispose()
  })

  test('the cache keeps the most recently used scripts', async ({ assert }) => {
    const sandbox = await createSandbox({ cacheSize: 2 })
    const run = (source: string) => value(sandbox.run(source))
    run('1')
    run('2')
    run('1') // 1 is now the most recent: 3 evicts 2
    run('3')
    assert.equal(sandbox.stats().compiled, 3)
    run('1')
    assert.equal(sandbox.stats().compiled, 3)
    run('2')
    assert.equal(sandbox.stats().compiled, 4)
    assert.equal(run('2'), 2)
    sandbox.dispose()
  })

  test('extra host functions take and give JSON', async ({ assert }) => {
    const sandbox = await createSandbox({
      host: {
        tasa: (monto) => Number(monto) * 0.19,
        falla: () => {
          throw new Error('sin servicio')
        },
      },
    })
    assert.equal(value(sandbox.run('tasa(monto)', { monto: 100 })), 19)
    assert.equal(value(sandbox.run('falla()')), 'error SCRIPT_ERROR: Error: falla(): sin servicio')
    assert.match(String(value(sandbox.run('tasa(() => 1)'))), /not JSON/)
    sandbox.dispose()
  })

  test('host function names must be new identifiers', async ({ assert }) => {
    await assert.rejects(() => createSandbox({ host: { Math: () => 1 } }), /host function 'Math'/)
    await assert.rejects(() => createSandbox({ host: { 'no es': () => 1 } }), /host function 'no es'/)
  })

  test('out of memory rebuilds the runtime; the next run recompiles and works', async ({ assert }) => {
    const sandbox = await createSandbox()
    assert.equal(value(sandbox.run('a + 1', { a: 1 })), 2)
    const bomb = sandbox.run('let a = []; while (true) a.push(new Uint8Array(1e6))', {}, { timeoutMs: 5000 })
    assert.equal(bomb.ok ? '' : bomb.error.code, 'SCRIPT_MEMORY')
    // Out of memory on a used runtime is tried once more on a fresh one: two rebuilds.
    assert.equal(sandbox.stats().rebuilds, 2)
    assert.equal(value(sandbox.run('a + 1', { a: 1 })), 2)
    sandbox.dispose()
  })

  test('a fault of the wasm module (the host stack exhausted) swaps in a spare instance', async ({ assert }) => {
    // A 4 MiB QuickJS stack is deeper than the main thread's ~1 MB native stack.
    const sandbox = await createSandbox({ stackLimitBytes: 4 * 1024 * 1024 })
    const r = sandbox.run('function f() { return f() } f()')
    assert.deepEqual(r, {
      ok: false,
      error: { code: 'SCRIPT_ERROR', message: 'stack overflow: the script recursed too deeply' },
    })
    assert.equal(sandbox.stats().faults, 1)
    assert.equal(value(sandbox.run('a + 1', { a: 1 })), 2)
    sandbox.dispose()
  })

  test('faults in a row with no spare ready: refused briefly, then served again', async ({ assert }) => {
    const sandbox = await createSandbox({ stackLimitBytes: 4 * 1024 * 1024 })
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(value(sandbox.run('function f() { return f() } f()')))
    assert.include(answers, 'error SCRIPT_ERROR: the sandbox is restarting after a fault; try again')
    // Served again once the replacement instance has loaded.
    await waitUntil(() => value(sandbox.run('a + 1', { a: 1 })) === 2, 10_000, 'a replacement instance serving')
    sandbox.dispose()
  })

  test('options are checked', async ({ assert }) => {
    await assert.rejects(() => createSandbox({ stackLimitBytes: 64 * 1024 * 1024 }), /stackLimitBytes/)
    await assert.rejects(() => createSandbox({ timeoutMs: 0 }), /positive/)
  })

  test('a disposed sandbox refuses to run', async ({ assert }) => {
    const sandbox = await createSandbox()
    sandbox.dispose()
    assert.throws(() => sandbox.run('1'), /disposed/)
    assert.equal(sandbox.stats().liveHandles, 0)
  })
})
