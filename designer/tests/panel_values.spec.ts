import { test } from '@japa/runner'
import { coreRegistry, type ItemKind } from '@tramita/contract'
import { describeSchema, nodeAt, type EditorNode, type JsonSchema } from '../src/panel/schema_nodes.js'
import {
  defaultText,
  effectiveValue,
  moveEntry,
  newListEntry,
  parseJson,
  parseNumber,
  parseTags,
  readAt,
  sharedValue,
  withValue,
} from '../src/panel/values.js'
import { entrySource, itemsSource, shownList } from '../src/panel/source.js'
import { pickerColour } from '../src/panel/colour.js'
import { entryTitle } from '../src/panel/ListEntry.js'
import { findItem, indexProblems, setItemsValue, validateDocument, type DesignDocument } from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const registry = coreRegistry()
const node = (type: string, path: string, kind: ItemKind = 'field') =>
  nodeAt(describeSchema(registry.require(kind, type).schema as JsonSchema), path.split('/')) as EditorNode

/** [type, path, stored value (sparse item), what the editor shows, the placeholder text] */
const SHOWN: [string, string, unknown, unknown, string][] = [
  ['text', 'data/ref/limit', undefined, -1, '-1'],
  ['text', 'data/ref/limit', 20, 20, '-1'],
  ['money', 'data/money/currency', undefined, 'COP', 'COP'],
  ['select', 'data/mode', undefined, 'dropdown', 'dropdown'],
  ['file', 'data/ext', ['pdf'], ['pdf'], ''],
  ['level', 'data/levels', undefined, 5, '5'],
  ['users', 'data/reduce/roles', undefined, [], ''],
  ['table', 'data/ref/table/pagination/selectOptions', undefined, '10,20,30', '10,20,30'],
]

test.group('property panel: values', () => {
  test('{$self}')
    .with(SHOWN.map((c) => Object.assign(c, { toString: () => `${c[0]} ${c[1]} stored ${JSON.stringify(c[2])}` })))
    .run(({ assert }, [type, path, stored, shown, placeholder]) => {
      const n = node(type, path)
      assert.deepEqual(effectiveValue(n, stored), shown)
      assert.equal(defaultText(n.default), placeholder)
    })

  test('withValue writes a copy, creating objects on the way; undefined removes', ({ assert }) => {
    const item = Object.freeze({ field_name: 'a', type: 'text', data: Object.freeze({ label: { value: 'A' } }) })
    assert.deepEqual(withValue(item, ['data', 'ref', 'limit'], 5), {
      field_name: 'a',
      type: 'text',
      data: { label: { value: 'A' }, ref: { limit: 5 } },
    })
    assert.deepEqual(withValue(item, ['data', 'label', 'value'], undefined), {
      field_name: 'a',
      type: 'text',
      data: { label: {} },
    })
    const list = [{ id: '1' }, { id: '2' }]
    assert.deepEqual(withValue(list, [1, 'bgcolor'], '#ff0000'), [{ id: '1' }, { id: '2', bgcolor: '#ff0000' }])
    assert.deepEqual(withValue(list, [0], undefined), [{ id: '2' }])
    assert.deepEqual(list, [{ id: '1' }, { id: '2' }], 'the input is unchanged')
    assert.equal(readAt(item, ['data', 'label', 'value']), 'A')
    assert.isUndefined(readAt(item, ['data', 'ref', 'limit']))
  })

  test('several items: the shared value, mixed, or set by some', ({ assert }) => {
    const a = { data: { validate: { required: true }, width: 6 } }
    const b = { data: { validate: { required: true } } }
    assert.deepEqual(sharedValue([a, b], ['data', 'validate', 'required']), {
      value: true,
      mixed: false,
      set: true,
      first: true,
    })
    assert.deepEqual(sharedValue([a, b], ['data', 'width']), { value: undefined, mixed: true, set: true, first: 6 })
    assert.deepEqual(sharedValue([b, b], ['data', 'width']), {
      value: undefined,
      mixed: false,
      set: false,
      first: undefined,
    })
  })

  test('typed text: numbers, tags (ids become numbers where the key holds ids), JSON', ({ assert }) => {
    assert.equal(parseNumber(' 12 '), 12)
    assert.isUndefined(parseNumber(''))
    assert.isNaN(parseNumber('abc'))
    assert.isNaN(parseNumber('1.5', true))
    assert.deepEqual(parseTags('pdf, docx,, '), ['pdf', 'docx'])
    assert.deepEqual(parseTags('3, ventas', true), [3, 'ventas'])
    assert.deepEqual(parseJson('{"a":1}'), { ok: true, value: { a: 1 } })
    assert.deepEqual(parseJson(''), { ok: true, value: undefined })
    assert.deepEqual(parseJson('{a'), { ok: false })
    assert.equal(pickerColour('#ABC'), '#aabbcc')
    assert.equal(pickerColour('#1C1066'), '#1c1066')
    assert.equal(pickerColour('red'), '#000000')
  })

  test('a new list entry has its required keys and a unique id or name; defaults stay out', ({ assert }) => {
    const options = node('select', 'data/options')
    assert.deepEqual(newListEntry(options.item!, [{ id: '1', label: 'Sí' }]), { id: '2', label: '' })
    assert.deepEqual(newListEntry(options.item!, [{ id: '2', label: 'x' }]), { id: '3', label: '' })
    const columns = node('table', 'data/ref/table/columns')
    assert.deepEqual(newListEntry(columns.item!, []), { name: 'name_1' })
    assert.deepEqual(newListEntry(node('level', 'data/body/shape').item!, []), {})
    assert.deepEqual(moveEntry(['a', 'b', 'c'], 2, 0), ['c', 'a', 'b'])
    assert.deepEqual(moveEntry(['a', 'b'], 1, 2), ['a', 'b'], 'out of range: unchanged')
    assert.equal(entryTitle({ id: '2', label: '' }, 'Opción 2'), '2')
    assert.equal(entryTitle({ label: 'Sí' }, 'x'), 'Sí')
    assert.equal(entryTitle({}, 'Forma 1'), 'Forma 1')
  })

  test("through the model: a list entry's edit stores the whole list, and the form stays valid", ({ assert }) => {
    let doc: DesignDocument = sampleDocument()
    const names = ['nombre', 'cedula']
    const source = itemsSource(
      names.map((name) => findItem(doc.jsonconfig, name)!.item),
      (path, value) => (doc = setItemsValue(names, path, value)(doc))
    )
    source.write(['data', 'validate', 'required'], true)
    source.write(['data', 'design', 'responsive', 'mobile'], 6)
    for (const name of names) {
      const item = findItem(doc.jsonconfig, name)!.item
      assert.deepEqual(readAt(item, ['data', 'validate', 'required']), true, name)
      assert.deepEqual(readAt(item, ['data', 'design', 'responsive']), { mobile: 6 }, name)
    }
    // A select with no options stored shows the default option; colouring it stores the list.
    doc = setItemsValue(['cedula'], ['type'], 'select')(doc)
    const read = () =>
      itemsSource([findItem(doc.jsonconfig, 'cedula')!.item], (path, value) => {
        doc = setItemsValue(['cedula'], path, value)(doc)
      })
    const optionsNode = node('select', 'data/options')
    const list = shownList(read().read(['data', 'options']), optionsNode.default)
    assert.deepEqual(list, [{ id: '1', label: 'Opción 1' }])
    entrySource(read(), ['data', 'options'], list, 0).write(['bgcolor'], '#ff0000')
    const stored = readAt(findItem(doc.jsonconfig, 'cedula')!.item, ['data', 'options'])
    assert.deepEqual(stored, [{ id: '1', label: 'Opción 1', bgcolor: '#ff0000' }])
    const current = stored as unknown[]
    read().write(['data', 'options'], [...current, newListEntry(optionsNode.item!, current)])
    assert.deepEqual(validateDocument(doc), [], 'sparse entries take their defaults')
    // Reset removes the key: the default applies again.
    read().write(['data', 'options'], undefined)
    assert.isUndefined(readAt(findItem(doc.jsonconfig, 'cedula')!.item, ['data', 'options']))
    assert.deepEqual(indexProblems(doc, validateDocument(doc)).ofItem('cedula'), [])
  })
})
