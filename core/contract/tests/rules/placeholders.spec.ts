import { test } from '@japa/runner'
import { fillPlaceholders, placeholderNames } from '../../src/rules/index.js'

test.group('placeholders', () => {
  const rows: [template: string, names: string[]][] = [
    ['Hola ${nombre}', ['nombre']],
    ['${a} y ${b} y otra vez ${a}', ['a', 'b']],
    ['${ espacio }', ['espacio']],
    ['$nombre, {nombre}, ${1malo}, ${a-b}', []],
    ['', []],
  ]
  for (const [template, names] of rows) {
    test(`names of ${JSON.stringify(template)}`, ({ assert }) => {
      assert.deepEqual(placeholderNames(template), names)
    })
  }

  test('known names are replaced, unknown ones stay as written, empty values become empty', ({ assert }) => {
    const values: Record<string, string> = { nombre: 'Ana', vacio: '' }
    const lookup = (name: string) => values[name]
    assert.equal(fillPlaceholders('Hola ${nombre}${vacio}, ${ nombre }! ${otro}', lookup), 'Hola Ana, Ana! ${otro}')
  })

  test('replacement text is not read again as a placeholder', ({ assert }) => {
    assert.equal(
      fillPlaceholders('${a}', (n) => (n === 'a' ? '${b}' : 'no')),
      '${b}'
    )
  })

  test('null and undefined templates are empty', ({ assert }) => {
    assert.equal(
      fillPlaceholders(undefined, () => 'x'),
      ''
    )
    assert.deepEqual(placeholderNames(null), [])
  })
})
