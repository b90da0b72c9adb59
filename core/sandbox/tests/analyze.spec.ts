import { test } from '@japa/runner'
import { analyzeScript, createSandbox } from '../src/index.ts'
import { BUILTIN_GLOBALS, HOST_API } from '../src/globals.ts'
import { prepareScript, prepareTree } from '../src/analyze.ts'
import { compileTree } from '../src/expression/compile.ts'
import { HOST_API_TYPINGS } from '../src/host-api-types.ts'

test.group('analyzeScript', () => {
  test('a script is parsed once for its names and its compiled tree (both read one shared tree)', ({ assert }) => {
    const name = `shared${Date.now()}`
    const source = `${name} > 2 && other`
    const first = prepareTree(source)
    assert.strictEqual(prepareTree(source), first)
    assert.deepEqual(analyzeScript(source).names, [name, 'other'])
    const compiled = compileTree(source)
    if ('refused' in compiled) return assert.fail(compiled.refused)
    // The interpreter's tree is the `return`'s argument inside the analysis's wrapper function.
    assert.strictEqual(compiled.tree, first.fn!.body.body[1].argument)
    // Extra globals change the names: such a preparation is neither taken from nor kept in the shared one.
    assert.deepInclude(prepareScript(source, ['other']), { names: [name] })
    assert.strictEqual(prepareTree(source), first)
  })

  test('an expression reads its free names', ({ assert }) => {
    assert.deepEqual(analyzeScript("edad > 18 && ciudad == 'X'"), { names: ['edad', 'ciudad'] })
  })

  test("value('...') literals are dependencies too, value(variable) only its variable", ({ assert }) => {
    assert.deepEqual(analyzeScript("value('nombre completo') + x").names, ['x', 'nombre completo'])
    assert.deepEqual(analyzeScript('value(campo)').names, ['campo'])
  })

  test('names the script declares are not dependencies', ({ assert }) => {
    const source = [
      'let a = b; const { p, q: r = s, ...t } = u; var [v1, ...v2] = w',
      'function h(k) { return k + m + arguments.length }',
      'class K extends Base { m() { return this.z + n } }',
      'try { x } catch (e) { e + y }',
      'for (const i of list) total += i',
      'return h(a) + p + r + t + v1 + v2 + new K()',
    ].join('\n')
    assert.deepEqual(analyzeScript(source).names, ['b', 's', 'u', 'w', 'm', 'Base', 'n', 'x', 'y', 'list', 'total'])
  })

  test('block-scoped declarations do not cover reads outside their block', ({ assert }) => {
    assert.deepEqual(analyzeScript('{ let inner = 1 } return inner').names, ['inner'])
    assert.deepEqual(analyzeScript('{ var hoisted = 1 } return hoisted').names, [])
  })

  test('member properties and object keys are not names; computed ones are', ({ assert }) => {
    assert.deepEqual(analyzeScript('a.b.c + d[e] + ({ f: 1, [g]: 2, h }).f').names, ['a', 'd', 'e', 'g', 'h'])
  })

  test('built-ins, the host API and extra host functions are not names', ({ assert }) => {
    assert.deepEqual(
      analyzeScript("Math.max(a, 1) + JSON.stringify(now()) + formatNumber(b) + setValue('c', 1)").names,
      ['a', 'b']
    )
    assert.deepEqual(analyzeScript('tasa(monto)', ['tasa']).names, ['monto'])
  })

  test('a name only assigned is not read', ({ assert }) => {
    assert.deepEqual(analyzeScript('x = 5').names, [])
    assert.deepEqual(analyzeScript('x += 5').names, ['x'])
  })

  test('a function body form: statements and return', ({ assert }) => {
    assert.deepEqual(analyzeScript('if (a > 1) { return b } return c'), { names: ['a', 'b', 'c'] })
  })

  test('a syntax error is reported with its position in the source', ({ assert }) => {
    assert.deepEqual(analyzeScript('if (x) {'), { names: [], error: 'SyntaxError: Unexpected token (1:8)' })
    assert.match(analyzeScript('a +\n* b').error!, /^SyntaxError: .* \(2:0\)$/)
  })

  test('a source that closes the wrapper function early is a syntax error', ({ assert }) => {
    assert.isString(analyzeScript('1) }), (function () { return (2').error)
    assert.isString(analyzeScript('1) })\n(function () {').error)
  })

  test('deep nesting is refused before QuickJS parses it; long flat chains are fine', ({ assert }) => {
    assert.match(analyzeScript('('.repeat(800) + 'x' + ')'.repeat(800)).error!, /brackets nest more than 100 deep/)
    assert.equal(analyzeScript('!'.repeat(2000) + 'x').error, 'SyntaxError: the script nests too deeply')
    const sum = Array.from({ length: 1000 }, (_, i) => `f${i}`).join(' + ')
    assert.lengthOf(analyzeScript(sum).names, 1000)
  })

  test("the built-in list matches QuickJS's global object", async ({ assert }) => {
    const sandbox = await createSandbox()
    const result = sandbox.run('Object.getOwnPropertyNames(globalThis)')
    sandbox.dispose()
    assert.isTrue(result.ok)
    const live = (result.ok ? (result.value as string[]) : []).filter((n) => !HOST_API.includes(n))
    assert.sameMembers(live, [...BUILTIN_GLOBALS])
  })
})

test.group('host API typings', () => {
  test('declare exactly the host API, each as a function of its name', ({ assert }) => {
    assert.deepEqual(Object.keys(HOST_API_TYPINGS).sort(), [...HOST_API].sort())
    for (const name of HOST_API) assert.include(HOST_API_TYPINGS[name], `declare function ${name}(`)
  })
})
