import { test } from '@japa/runner'
import { coreRegistry, type ItemKind } from '@tramita/contract'
import {
  describeSchema,
  isColourKey,
  leaves,
  nodeAt,
  type EditorNode,
  type JsonSchema,
} from '../src/panel/schema_nodes.js'

const registry = coreRegistry()
const tree = (type: string, kind: ItemKind = 'field') =>
  describeSchema(registry.require(kind, type).schema as JsonSchema)
const at = (root: EditorNode, path: string) => {
  const node = nodeAt(root, path.split('/'))
  if (!node) throw new Error(`no editor at ${path}`)
  return node
}

/** [type, path inside the item, expected editor kind, expected default, more expected properties] */
const CASES: [string, string, EditorNode['kind'], unknown, Partial<EditorNode>?][] = [
  ['text', 'data/label/value', 'text', ''],
  ['text', 'data/ref/limit', 'number', -1],
  ['text', 'data/ref/pattern', 'text', ''],
  ['text', 'data/validate/required', 'boolean', false],
  ['text', 'state/natural', 'select', 'enabled', { options: ['enabled', 'disabled', 'readonly'] }],
  ['text', 'data/design/responsive/tablet', 'number', 12, { minimum: 1, maximum: 12, integer: true }],
  ['text', 'data/width', 'number', -1, { minimum: -1, maximum: 12 }],
  ['text', 'data/autocomplete', 'tags', []],
  ['text', 'data/password', 'boolean', false],
  ['text', 'data/show_with_formule', 'script', ''],
  ['text', 'data/on_change', 'script', ''],
  ['text', 'data/design/colors/background', 'colour', ''],
  ['text', 'data/design/border/color', 'colour', '#cccccc'],
  ['text', 'field_name', 'text', undefined, { required: true, minLength: 1 }],
  ['text', 'data/ref/value', 'json', undefined, { optional: true }],
  ['text', 'show_on_task', 'tags', []],
  ['number', 'data/limit/min', 'number', -1],
  ['number', 'data/decimals/significant', 'number', 2, { integer: true, minimum: 0 }],
  ['number', 'data/money/enabled', 'boolean', false],
  ['money', 'data/money/enabled', 'boolean', true],
  ['money', 'data/money/currency', 'text', 'COP', { minLength: 3, maxLength: 3 }],
  ['money', 'data/money/type_display', 'select', 'symbol', { options: ['symbol', 'narrowSymbol', 'code', 'name'] }],
  ['select', 'data/options', 'list', [{ id: '1', label: 'Opción 1' }]],
  ['select', 'data/mode', 'select', 'dropdown', { options: ['list', 'dropdown'] }],
  ['select', 'data/multiple', 'boolean', false],
  ['file', 'data/ext', 'tags', []],
  ['file', 'data/height', 'number', 90],
  ['file', 'data/preview', 'boolean', true],
  ['level', 'data/levels', 'number', 5, { minimum: 1, maximum: 10 }],
  ['level', 'data/body/shape', 'list', []],
  ['users', 'data/reduce/areas', 'tags', [], { ids: true }],
  ['users', 'data/ref/selector', 'text', 'label'],
  ['table', 'data/ref/table/columns', 'list', []],
  ['table', 'data/ref/table/header_background', 'colour', '#1C1066'],
  ['table', 'data/ref/table/pagination/size', 'number', 10],
]

test.group('property panel: schema to editors', () => {
  test('{$self}')
    .with(CASES.map((c) => Object.assign(c, { toString: () => `${c[0]} ${c[1]} → ${c[2]}` })))
    .run(({ assert }, [type, path, kind, fallback, more]) => {
      const node = at(tree(type), path)
      assert.equal(node.kind, kind, `${type} ${path}`)
      assert.deepEqual(node.default, fallback, `${type} ${path} default`)
      assert.deepEqual(node.path, path.split('/'))
      for (const [key, value] of Object.entries(more ?? {})) {
        assert.deepEqual(node[key as keyof EditorNode], value, `${type} ${path} ${key}`)
      }
    })

  test('list entries are described from the entry: options with colours, shapes, columns with buttons', ({
    assert,
  }) => {
    const option = at(tree('select'), 'data/options').item!
    assert.deepEqual(
      option.children!.map((c) => [c.key, c.kind, c.required]),
      [
        ['id', 'text', true],
        ['label', 'text', true],
        ['bgcolor', 'colour', false],
        ['txcolor', 'colour', false],
      ]
    )
    assert.isTrue(option.children![0]!.ids, 'an option id is a string or a number')
    const shape = at(tree('level'), 'data/body/shape').item!
    assert.deepEqual(
      shape.children!.map((c) => [c.key, c.kind, c.default]),
      [
        ['label', 'text', ''],
        ['symbol', 'text', '★'],
        ['color', 'colour', '#f5b301'],
      ]
    )
    const column = at(tree('table'), 'data/ref/table/columns').item!
    const kinds = Object.fromEntries(column.children!.map((c) => [c.key, c.kind]))
    assert.include(kinds, { name: 'text', type: 'select', formule: 'script', buttons: 'list', display: 'object' })
    const type = column.children!.find((c) => c.key === 'type')!
    assert.deepEqual(type.options, ['text', 'number', 'boolean', 'date', 'formule', 'buttons'])
    const button = column.children!.find((c) => c.key === 'buttons')!.item!
    assert.deepEqual(nodeAt(button, ['background'])?.kind, 'colour')
    assert.deepEqual(nodeAt(column, ['display', 'true', 'color'])?.kind, 'colour')
  })

  test('every key of every registered type gets an editor (no value left without one)', ({ assert }) => {
    for (const fieldType of registry.list()) {
      const root = describeSchema(fieldType.schema as JsonSchema)
      assert.equal(root.kind, 'object')
      for (const leaf of leaves(root)) {
        assert.isNotEmpty(leaf.key, `${fieldType.type}`)
        if (leaf.kind === 'select' || leaf.kind === 'fixed') assert.isNotEmpty(leaf.options, leaf.path.join('/'))
        if (leaf.kind === 'list') assert.equal(leaf.item?.kind, 'object', leaf.path.join('/'))
      }
      // Only `type`, the free preset value and the table's rows lack a specific editor; translations
      // (one text map per language) are edited in the row of each text they translate.
      const fixedOrJson = leaves(root)
        .filter((leaf) => leaf.kind === 'json')
        .map((leaf) => leaf.path.join('/'))
      assert.sameMembers(
        fixedOrJson,
        ['data/ref/value', 'translations/es', 'translations/en', 'translations/zh'],
        fieldType.type
      )
    }
  })

  test('colour keys: by name, or anything inside `colors`', ({ assert }) => {
    assert.isTrue(isColourKey('bgcolor', 'x'))
    assert.isTrue(isColourKey('header_color', 'table'))
    assert.isTrue(isColourKey('text', 'colors'))
    assert.isFalse(isColourKey('text', 'true'))
    assert.isFalse(isColourKey('format', 'column'))
    assert.equal(describeSchema({ type: 'string', format: 'color' }, ['tone']).kind, 'colour')
  })

  test('optional keys without a default are "not set"; required ones without a default are marked', ({ assert }) => {
    const section = tree('section', 'element')
    const sectionId = at(section, 'data/section_id')
    assert.isTrue(sectionId.required)
    assert.isFalse(sectionId.optional)
    assert.equal(at(tree('send', 'element'), 'data/type').kind, 'fixed')
    const union = describeSchema({ anyOf: [{ type: 'object', properties: {} }, { type: 'string' }] }, ['x'])
    assert.equal(union.kind, 'json')
  })
})
