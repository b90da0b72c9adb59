import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { scriptTypings } from '@tramita/contract/typings'
import { createSandbox } from '@tramita/sandbox'
import {
  mapDiagnostics,
  positionAt,
  prepareCheck,
  SCRIPT_COMPILER_OPTIONS,
  scriptForm,
  syntaxDiagnostic,
  toSourceOffset,
  wrapScript,
  type ScriptDiagnostic,
} from '../src/scripts/script_source.js'
import { PROCESS_SAMPLE, sampleVariables } from '../src/scripts/samples.js'

const FORM = {
  fields: [
    { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
    { field_name: 'nombre', type: 'text' },
    { field_name: 'acepta', type: 'switch' },
    { field_name: 'nombre completo', type: 'text' },
  ],
}
const TYPINGS = scriptTypings(FORM)

/**
 * What the editor shows for a script, computed in Node: the sandbox's syntax error, else TypeScript's
 * errors on the same wrapper, with the same options and typings Monaco's worker gets.
 */
function check(source: string, typings = TYPINGS): ScriptDiagnostic[] {
  const prepared = prepareCheck(source)
  if ('syntax' in prepared) return [prepared.syntax]
  const files: Record<string, string> = { '/form.d.ts': typings, '/script.ts': prepared.wrapped.text }
  const options = { ...SCRIPT_COMPILER_OPTIONS, lib: [...SCRIPT_COMPILER_OPTIONS.lib] } as ts.CompilerOptions
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (name, version) => {
    if (name in files) return ts.createSourceFile(name, files[name]!, version)
    if (!libraries.has(name)) libraries.set(name, read(name, version))
    return libraries.get(name)
  }
  const program = ts.createProgram(Object.keys(files), options, host)
  const script = program.getSourceFile('/script.ts')!
  const raw = [...program.getSyntacticDiagnostics(script), ...program.getSemanticDiagnostics(script)]
  // Nothing else of the program may fail: the typings and the libraries are sound.
  const elsewhere = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName !== '/script.ts')
  if (elsewhere.length > 0) throw new Error(ts.flattenDiagnosticMessageText(elsewhere[0]!.messageText, '\n'))
  return mapDiagnostics(prepared.wrapped, raw)
}

/** The libraries parse once for the whole file (each check builds a new program). */
const libraries = new Map<string, ts.SourceFile | undefined>()

const at = (d: ScriptDiagnostic) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn}`

test.group('script editor: expression or body', () => {
  test('the form is the one the sandbox compiles', async ({ assert }) => {
    const cases: [string, 'expression' | 'body'][] = [
      ["edad > 18 && ciudad == 'X'", 'expression'],
      ['a\n  + b // sum', 'expression'],
      ['{ a: 1 }', 'expression'],
      ['(x) => x', 'expression'],
      ['`${a})`', 'expression'],
      ["/\\)/.test(nombre) ? ')' : '('", 'expression'],
      ['', 'body'],
      ['// only a comment', 'body'],
      ['const x = 1\nreturn x + 1', 'body'],
      ["if (acepta) setValue('nombre', 'x')", 'body'],
      ['return 1', 'body'],
      ['a; b', 'body'],
    ]
    const sandbox = await createSandbox()
    try {
      for (const [source, form] of cases) assert.deepEqual(scriptForm(source), { form }, source)
      // The sandbox agrees: an expression's value, and null for a body without return.
      assert.deepEqual(sandbox.run('{ a: 1 }'), { ok: true, value: { a: 1 }, effects: [] })
      assert.deepEqual(sandbox.run('a; b', { a: 1, b: 2 }), { ok: true, value: null, effects: [] })
    } finally {
      sandbox.dispose()
    }
  })

  test('a script that closes the wrapper early is a syntax error, not an expression', ({ assert }) => {
    const verdict = scriptForm('1); foo(')
    assert.equal(verdict.form, 'body')
    assert.match(verdict.error!, /^SyntaxError: /)
  })

  test('syntax errors carry the sandbox message at its line and column', ({ assert }) => {
    const source = 'const a = 1\nconst b = a +* 2\nreturn b'
    const prepared = prepareCheck(source)
    assert.properties(prepared, ['syntax'])
    const d = (prepared as { syntax: ScriptDiagnostic }).syntax
    assert.equal(d.kind, 'syntax')
    assert.match(d.message, /^SyntaxError: Unexpected token$/)
    assert.equal(d.line, 2)
    assert.equal(d.column, 14)
    assert.deepEqual(syntaxDiagnostic('x', 'SyntaxError: odd'), {
      kind: 'syntax',
      message: 'SyntaxError: odd',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 2,
    })
  })
})

test.group('script editor: positions through the wrapper', () => {
  test('the script sits on lines of its own: same columns, a fixed line offset', ({ assert }) => {
    for (const form of ['expression', 'body'] as const) {
      const source = 'uno\n  dos\r\ntres'
      const wrapped = wrapScript(source, form)
      assert.equal(wrapped.text.slice(wrapped.offset, wrapped.offset + source.length), source)
      assert.equal(positionAt(wrapped.text, wrapped.offset).column, 1)
      const shift = positionAt(wrapped.text, wrapped.offset).line - 1
      for (const offset of [0, 2, 4, 6, 9, 11, source.length]) {
        const inWrapper = positionAt(wrapped.text, wrapped.offset + offset)
        const inSource = positionAt(source, toSourceOffset(wrapped, wrapped.offset + offset))
        assert.deepEqual(inSource, { line: inWrapper.line - shift, column: inWrapper.column }, `${form} ${offset}`)
      }
    }
  })

  test('line breaks count as editors count them; offsets outside the script clamp to its edges', ({ assert }) => {
    assert.deepEqual(positionAt('a\r\nb\rc\nd', 3), { line: 2, column: 1 })
    assert.deepEqual(positionAt('a\r\nb\rc\nd', 5), { line: 3, column: 1 })
    assert.deepEqual(positionAt('a\r\nb\rc\nd', 7), { line: 4, column: 1 })
    assert.deepEqual(positionAt('ab', 99), { line: 1, column: 3 })
    const wrapped = wrapScript('x\ny', 'expression')
    assert.equal(toSourceOffset(wrapped, 0), 0)
    assert.equal(toSourceOffset(wrapped, wrapped.text.length), 3)
  })

  test('raw diagnostics map to script ranges; only errors, once each, in order', ({ assert }) => {
    const wrapped = wrapScript('a +\nbb', 'expression')
    const o = wrapped.offset
    const mapped = mapDiagnostics(wrapped, [
      { start: o + 4, length: 2, code: 2304, category: 1, messageText: "Cannot find name 'bb'." },
      { start: o + 4, length: 2, code: 2304, category: 1, messageText: "Cannot find name 'bb'." },
      {
        start: o,
        length: 1,
        code: 2304,
        category: 1,
        messageText: { messageText: 'outer', next: [{ messageText: 'inner' }] },
      },
      { start: o, length: 1, code: 6133, category: 2, messageText: 'a suggestion' },
      { start: wrapped.text.length - 2, length: 1, code: 1005, category: 1, messageText: "')' expected." },
    ])
    assert.deepEqual(
      mapped.map((d) => [at(d), d.message]),
      [
        ['1:1-1:2', 'outer\n  inner'],
        ['2:1-2:3', "Cannot find name 'bb'."],
        ['2:3-2:3', "')' expected."],
      ]
    )
  })
})

test.group('script editor: real diagnostics (TypeScript, as in the editor)', () => {
  test('a correct script has none, as an expression and as a body', ({ assert }) => {
    assert.deepEqual(check("typeof edad === 'number' && edad >= 18 && nombre != ''"), [])
    assert.deepEqual(
      check(
        [
          "const mayor = typeof edad === 'number' && edad >= 18",
          "const saludo = nombre.toUpperCase() + value('nombre completo').trim()",
          "if (acepta && mayor) setValue('nombre', saludo + formatDate(now(), 'YYYY'))",
          "setState('edad', { natural: 'readonly', required: true })",
          'return code_process + String(gnrl_id + this_id + id_process) + formatMoney(1000)',
        ].join('\n')
      ),
      []
    )
    assert.deepEqual(check(''), [])
    assert.deepEqual(check('function doble(n) { return n * 2 }\nreturn doble(3)'), [])
  })

  test('a misspelt field name gives one error at its line and column', ({ assert }) => {
    const found = check("const x = 1\nif (acepta) setValue('nombre', nombree + x)")
    assert.lengthOf(found, 1)
    assert.equal(found[0]!.kind, 'type')
    assert.match(found[0]!.message, /Cannot find name 'nombree'/)
    assert.equal(at(found[0]!), '2:32-2:39')

    const expression = check('acepta &&\n   edadd > 3')
    assert.lengthOf(expression, 1)
    assert.match(expression[0]!.message, /Cannot find name 'edadd'/)
    assert.equal(at(expression[0]!), '2:4-2:9')
  })

  test('a type error gives one error at its line and column', ({ assert }) => {
    const found = check("const n = 2\n  setState('edad', { natural: 'oculto' })")
    assert.lengthOf(found, 1)
    assert.match(found[0]!.message, /oculto/)
    assert.equal(found[0]!.line, 2)
    assert.equal(found[0]!.column, 22)

    const wrongName = check("setValue('apellido', 1)")
    assert.lengthOf(wrongName, 1)
    assert.match(wrongName[0]!.message, /"apellido"/)
    assert.equal(at(wrongName[0]!), '1:10-1:20')

    const method = check('nombre.toFixed(2)')
    assert.lengthOf(method, 1)
    assert.match(method[0]!.message, /toFixed/)
    assert.equal(at(method[0]!), '1:8-1:15')
  })

  test('no DOM: the sandbox has no document or window', ({ assert }) => {
    const found = check('document.title + window.name')
    assert.deepEqual(
      found.map((d) => `${at(d)} ${d.code}`),
      ['1:1-1:9 2584', '1:18-1:24 2304']
    )
  })

  test('TypeScript-only syntax is refused the way the sandbox refuses it', ({ assert }) => {
    const found = check('const x: number = 1\nreturn x')
    assert.lengthOf(found, 1)
    assert.equal(found[0]!.kind, 'syntax')
    assert.equal(found[0]!.line, 1)
    assert.equal(found[0]!.column, 8)
  })

  test("a template's fields type-check", ({ assert }) => {
    const file = fileURLToPath(new URL('../../templates/forms/solicitud-permiso.json', import.meta.url))
    const config = JSON.parse(readFileSync(file, 'utf8')) as { fields: { field_name: string; type: string }[] }
    const name = config.fields[0]!.field_name
    assert.deepEqual(check(`value(${JSON.stringify(name)})`, scriptTypings(config)), [])
  })
})

test.group('script editor: sample values', () => {
  test('every field at its empty value, and the process variables', ({ assert }) => {
    const vars = sampleVariables({
      ...FORM,
      fields: [...FORM.fields, { field_name: 'tags', type: 'select', data: { multiple: true } }],
    })
    assert.deepEqual(vars, {
      ...PROCESS_SAMPLE,
      edad: '',
      nombre: '',
      acepta: false,
      'nombre completo': '',
      tags: [],
    })
    assert.deepEqual(sampleVariables({ fields: [{ field_name: 'x', type: 'no-such-type' }] }).x, '')
  })
})
