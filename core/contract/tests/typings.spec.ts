import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import * as Type from '../src/schema/type.js'
import { schemaToTs, scriptTypings } from '../src/typings.js'

const PERMIT = fileURLToPath(new URL('../../../templates/forms/solicitud-permiso.json', import.meta.url))

/** The type errors of a script checked against the typings, as the designer's editor checks them. */
function typeErrors(typings: string, script: string): string[] {
  const files: Record<string, string> = { 'form.d.ts': typings, 'script.ts': `export {}\n${script}\n` }
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (name, version) =>
    name in files ? ts.createSourceFile(name, files[name]!, version) : read(name, version)
  const program = ts.createProgram(Object.keys(files), options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

test.group('scriptTypings', () => {
  test('schemas become TypeScript types', ({ assert }) => {
    assert.equal(schemaToTs(Type.String()), 'string')
    assert.equal(schemaToTs(Type.Union([Type.Number(), Type.Literal('')])), 'number | ""')
    assert.equal(schemaToTs(Type.Array(Type.Union([Type.String(), Type.Null()]))), '(string | null)[]')
    assert.equal(
      schemaToTs(Type.Object({ code: Type.String(), label: Type.Optional(Type.String()) })),
      '{ code: string; label?: string }'
    )
    assert.equal(schemaToTs(Type.Record(Type.String(), Type.Unknown())), '{ [key: string]: unknown }')
    assert.equal(schemaToTs(Type.Unknown()), 'unknown')
  })

  test('a script that reads the form right type-checks; wrong names and wrong types do not', ({ assert }) => {
    const typings = scriptTypings({
      fields: [
        { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
        { field_name: 'nombre', type: 'text' },
        { field_name: 'acepta', type: 'switch' },
        { field_name: 'nombre completo', type: 'text' },
      ],
    })
    assert.include(typings, '/** Edad (number) */\ndeclare const edad: number | ""')
    assert.notInclude(typings, 'declare const nombre completo')
    assert.deepEqual(
      typeErrors(
        typings,
        [
          "const mayor = typeof edad === 'number' && edad >= 18",
          "const saludo: string = nombre.toUpperCase() + value('nombre completo').trim()",
          "if (acepta && mayor) setValue('nombre', saludo + formatDate(now(), 'YYYY'))",
          "setState('edad', { natural: 'readonly', required: true })",
          'const caso: string = code_process + String(gnrl_id + this_id + id_process)',
        ].join('\n')
      ),
      []
    )
    assert.match(typeErrors(typings, 'const x = edadd > 3').join(), /Cannot find name 'edadd'/)
    assert.match(typeErrors(typings, 'const x: number = nombre').join(), /not assignable to type 'number'/)
    assert.match(typeErrors(typings, "setValue('apellido', 1)").join(), /"apellido"/)
    assert.match(typeErrors(typings, "setState('edad', { natural: 'oculto' })").join(), /oculto/)
  })

  test('every field of a template is declared', ({ assert }) => {
    const config = JSON.parse(readFileSync(PERMIT, 'utf8')) as { fields: { field_name: string; type: string }[] }
    const typings = scriptTypings(config)
    for (const field of config.fields) assert.include(typings, `value(name: ${JSON.stringify(field.field_name)})`)
    assert.deepEqual(typeErrors(typings, ''), [])
  })
})
