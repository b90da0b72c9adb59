import { test } from '@japa/runner'
import { coreRegistry } from '@tramita/contract'
import { outline } from '../src/model/index.js'
import {
  describePlace,
  describeSource,
  dropCommand,
  dropId,
  itemDragId,
  paletteDragId,
  parseDragId,
  parseDropId,
  type DropPlace,
} from '../src/canvas/drops.js'
import { nearestInDirection, type Box, type Direction } from '../src/canvas/keyboard_moves.js'
import { layouts, sampleDocument } from './model_fixture.js'

const registry = coreRegistry()

test.group('designer canvas: drops as model commands', () => {
  test('drag and drop ids go both ways; anything else is nothing', ({ assert }) => {
    const places: DropPlace[] = [
      { at: 'slot', page: 1, row: 2, column: 0 },
      { at: 'row', page: 0, row: 3 },
      { at: 'page', page: 2 },
    ]
    for (const place of places) assert.deepEqual(parseDropId(dropId(place)), place)
    assert.deepEqual(parseDragId(itemDragId('nombre')), { from: 'item', name: 'nombre' })
    assert.deepEqual(parseDragId(paletteDragId('element', 'text')), { from: 'palette', kind: 'element', type: 'text' })
    for (const bad of ['slot:1:2', 'row:x:1', 'page:1:2', 'slot:1:2:3:4', 'none:nombre', 7, undefined]) {
      assert.isUndefined(parseDropId(bad), String(bad))
    }
    assert.isUndefined(parseDragId('palette:widget:text'))
    assert.isUndefined(parseDragId(null))
  })

  test('an item dropped before another, at a row end, on a new row or on a page tab', ({ assert }) => {
    const doc = sampleDocument()
    const drop = (place: DropPlace) => layouts(dropCommand(doc, registry, { from: 'item', name: 'jefe' }, place)!(doc))
    assert.deepEqual(drop({ at: 'slot', page: 0, row: 1, column: 1 })[0], [['titulo'], ['nombre', 'jefe', 'cedula']])
    assert.deepEqual(drop({ at: 'slot', page: 0, row: 0, column: 1 })[0], [
      ['titulo', 'jefe'],
      ['nombre', 'cedula'],
    ])
    assert.deepEqual(drop({ at: 'row', page: 0, row: 0 })[0], [['jefe'], ['titulo'], ['nombre', 'cedula']])
    const moved = drop({ at: 'page', page: 1 })
    assert.deepEqual(moved[0], [['titulo'], ['nombre', 'cedula']])
    assert.deepEqual(moved[1], [['motivo'], [], ['hijos', 'hijo_nombre'], ['jefe']])
  })

  test('a selected item brings the selection along; an unselected one goes alone', ({ assert }) => {
    const doc = sampleDocument()
    const place: DropPlace = { at: 'row', page: 1, row: 0 }
    const both = dropCommand(doc, registry, { from: 'item', name: 'jefe' }, place, ['jefe', 'titulo'])!(doc)
    assert.deepEqual(layouts(both)[1]![0], ['titulo', 'jefe'])
    const alone = dropCommand(doc, registry, { from: 'item', name: 'cedula' }, place, ['jefe', 'titulo'])!(doc)
    assert.deepEqual(layouts(alone)[1]![0], ['cedula'])
  })

  test('a palette type becomes a new item where it is dropped; an unknown type or page does nothing', ({ assert }) => {
    const doc = sampleDocument()
    const added = dropCommand(
      doc,
      registry,
      { from: 'palette', kind: 'field', type: 'date' },
      {
        at: 'slot',
        page: 0,
        row: 2,
        column: 1,
      }
    )!(doc)
    assert.deepEqual(layouts(added)[0]![2], ['jefe', 'date_1'])
    assert.equal(added.jsonconfig.fields.at(-1)!.type, 'date')
    const element = dropCommand(
      doc,
      registry,
      { from: 'palette', kind: 'element', type: 'divider' },
      {
        at: 'page',
        page: 2,
      }
    )!(doc)
    assert.deepEqual(layouts(element)[2], [['nota'], ['divider_1']])
    assert.equal(element.jsonconfig.elements.at(-1)!.field_name, 'divider_1')
    const palette = { from: 'palette', kind: 'field', type: 'nope' } as const
    assert.isUndefined(dropCommand(doc, registry, palette, { at: 'page', page: 0 }))
    assert.isUndefined(dropCommand(doc, registry, { from: 'item', name: 'jefe' }, { at: 'page', page: 9 }))
  })

  test('what the screen reader hears: the item by its label, places counted from one', ({ assert }) => {
    const read = outline(sampleDocument(), registry)
    assert.deepEqual(describeSource({ from: 'item', name: 'nombre' }, read), {
      key: 'a11y_item',
      values: { label: 'Nombre' },
    })
    assert.deepEqual(describeSource({ from: 'palette', kind: 'field', type: 'date' }, read).values, { type: 'date' })
    assert.deepEqual(describePlace({ at: 'slot', page: 1, row: 0, column: 2 }, read), {
      key: 'a11y_over_slot',
      values: { page: 'Detalle', row: 1, column: 3 },
    })
    assert.equal(describePlace({ at: 'page', page: 2 }, read).key, 'a11y_over_page')
    assert.deepEqual(describePlace({ at: 'row', page: 0, row: 3 }, read).values, { page: 'Datos', row: 4 })
  })
})

test.group('designer canvas: keyboard moves', () => {
  const box = (left: number, top: number, width = 100, height = 40): Box => ({ left, top, width, height })
  // Two rows of two places, a new-row strip between them and one below them.
  const boxes: [string, Box][] = [
    ['a', box(0, 0)],
    ['b', box(120, 0)],
    ['between', box(0, 45, 240, 10)],
    ['c', box(0, 60)],
    ['d', box(120, 60)],
    ['new', box(0, 120, 220, 10)],
  ]
  const at = (name: string) => boxes.find(([id]) => id === name)![1]
  /** From the place `name` is over (the search leaves that place out). */
  const go = (name: string, direction: Direction) =>
    nearestInDirection(
      at(name),
      direction,
      boxes.filter(([id]) => id !== name)
    )

  test('each arrow goes to the nearest place that way, staying in line when it can', ({ assert }) => {
    assert.equal(go('a', 'right'), 'b')
    assert.equal(go('a', 'down'), 'between')
    assert.equal(go('between', 'down'), 'd', 'in line with the strip, the nearer centre')
    assert.equal(go('d', 'down'), 'new')
    assert.equal(go('d', 'left'), 'c')
    assert.equal(go('d', 'up'), 'between')
    assert.equal(go('between', 'up'), 'b')
  })

  test('a wide strip next to a place is not beside it, and the place itself is not ahead', ({ assert }) => {
    // A full-width card, the new-row strip above it (its centre a little to the right) and the
    // row's end beside it: right goes to the row's end.
    const card = box(0, 0, 200, 40)
    const row: [string, Box][] = [
      ['strip', box(0, -10, 220, 10)],
      ['end', box(205, 0, 20, 40)],
    ]
    assert.equal(nearestInDirection(card, 'right', row), 'end')
    // From a box a little off a place (a drag overlay at its corner), that place is not "below".
    assert.equal(nearestInDirection(box(0, 0, 60, 24), 'down', boxes), 'between')
  })

  test('nothing that way: no place (the drag stays where it is)', ({ assert }) => {
    assert.isUndefined(go('a', 'up'))
    assert.isUndefined(go('a', 'left'))
    assert.isUndefined(go('between', 'right'))
    assert.isUndefined(nearestInDirection(at('a'), 'down', []))
  })
})
