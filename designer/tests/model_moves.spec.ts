import { test } from '@japa/runner'
import { addItem, addRow, moveItem, moveItems, validateDocument } from '../src/model/index.js'
import { coreRegistry } from '@tramita/contract'
import { layouts, sampleDocument } from './model_fixture.js'

test.group('designer model: moving items', () => {
  test('within a row: the column is a place in the row as it was before the move', ({ assert }) => {
    const doc = sampleDocument()
    assert.deepEqual(layouts(moveItem('nombre', { page: 0, row: 1, column: 2 })(doc))[0]![1], ['cedula', 'nombre'])
    assert.deepEqual(layouts(moveItem('cedula', { page: 0, row: 1, column: 0 })(doc))[0]![1], ['cedula', 'nombre'])
  })

  test('a drop where the item already is changes nothing (no history step)', ({ assert }) => {
    const doc = sampleDocument()
    assert.strictEqual(moveItem('nombre', { page: 0, row: 1, column: 0 })(doc), doc)
    assert.strictEqual(moveItem('nombre', { page: 0, row: 1, column: 1 })(doc), doc)
    assert.strictEqual(moveItems(['nombre', 'cedula'], { page: 0, row: 1, column: 0 })(doc), doc)
  })

  test('between rows: the row left empty goes, the other rows keep their places', ({ assert }) => {
    const doc = sampleDocument()
    const next = moveItem('jefe', { page: 0, row: 1, column: 1 })(doc)
    assert.deepEqual(layouts(next)[0], [['titulo'], ['nombre', 'jefe', 'cedula']])
    const up = moveItem('titulo', { page: 0, row: 2, column: 0 })(doc)
    assert.deepEqual(layouts(up)[0], [
      ['nombre', 'cedula'],
      ['titulo', 'jefe'],
    ])
  })

  test('into a new row, at the top, between rows or at the bottom', ({ assert }) => {
    const doc = sampleDocument()
    assert.deepEqual(layouts(moveItem('cedula', { page: 0, newRow: 0 })(doc))[0], [
      ['cedula'],
      ['titulo'],
      ['nombre'],
      ['jefe'],
    ])
    assert.deepEqual(layouts(moveItem('titulo', { page: 0, newRow: 3 })(doc))[0], [
      ['nombre', 'cedula'],
      ['jefe'],
      ['titulo'],
    ])
    // The new row is placed before row 2 as it was ('jefe'), whatever the removal does above it.
    assert.deepEqual(layouts(moveItem('titulo', { page: 0, newRow: 2 })(doc))[0], [
      ['nombre', 'cedula'],
      ['titulo'],
      ['jefe'],
    ])
  })

  test('between pages, into an empty row made as a drop zone', ({ assert }) => {
    const doc = sampleDocument()
    const next = moveItem('jefe', { page: 1, row: 1, column: 0 })(doc)
    assert.deepEqual(layouts(next), [
      [['titulo'], ['nombre', 'cedula']],
      [['motivo'], ['jefe'], ['hijos', 'hijo_nombre']],
      [['nota']],
    ])
    const fresh = addRow(2)(doc)
    const onSection = moveItem('motivo', { page: 2, row: 1, column: 0 })(fresh)
    assert.deepEqual(layouts(onSection)[2], [['nota'], ['motivo']])
    assert.deepEqual(layouts(onSection)[1], [[], ['hijos', 'hijo_nombre']], 'the empty row made on purpose stays')
    assert.deepEqual(validateDocument(next), [])
  })

  test('several at once keep their layout order and land together, wherever they came from', ({ assert }) => {
    const doc = sampleDocument()
    const next = moveItems(['hijo_nombre', 'jefe', 'nombre'], { page: 1, row: 0, column: 1 })(doc)
    assert.deepEqual(layouts(next), [
      [['titulo'], ['cedula']],
      [['motivo', 'nombre', 'jefe', 'hijo_nombre'], [], ['hijos']],
      [['nota']],
    ])
    const newRow = moveItems(['cedula', 'titulo'], { page: 2, newRow: 1 })(doc)
    assert.deepEqual(layouts(newRow)[2], [['nota'], ['titulo', 'cedula']])
    assert.deepEqual(layouts(newRow)[0], [['nombre'], ['jefe']])
  })

  test('an item on no layout is placed; bad places and unknown names are refused', ({ assert }) => {
    const doc = addItem(coreRegistry(), { kind: 'field', type: 'text', name: 'apellido' })(sampleDocument())
    const placed = moveItem('apellido', { page: 0, row: 1, column: 1 })(doc)
    assert.deepEqual(layouts(placed)[0]![1], ['nombre', 'apellido', 'cedula'])
    assert.throws(() => moveItem('nombre', { page: 5, newRow: 0 })(doc), /No page 5/)
    assert.throws(() => moveItem('nombre', { page: 0, row: 9, column: 0 })(doc), /No row 9/)
    assert.throws(() => moveItem('nombre', { page: 0, row: 1, column: 3 })(doc), /No column 3/)
    assert.throws(() => moveItem('nombre', { page: 0, newRow: 4 })(doc), /No row position 4/)
    assert.throws(() => moveItem('nadie', { page: 0, newRow: 0 })(doc), /No field or element named "nadie"/)
  })
})
