import { test } from '@japa/runner'
import { coreRegistry, type ItemKind } from '@tramita/contract'
import { describeSchema, leaves, type EditorNode, type JsonSchema } from '../src/panel/schema_nodes.js'
import { GROUP_IDS, panelGroups, type GroupId } from '../src/panel/groups.js'
import { commonNode, type PanelItem } from '../src/panel/common.js'

const registry = coreRegistry()
const tree = (type: string, kind: ItemKind = 'field') =>
  describeSchema(registry.require(kind, type).schema as JsonSchema)
const item = (type: string, name = `${type}_1`, kind: ItemKind = 'field'): PanelItem => ({
  name,
  kind,
  item: { field_name: name, type },
})
const paths = (nodes: readonly EditorNode[]) => nodes.map((node) => node.path.join('/'))
const groupOf = (root: EditorNode, id: GroupId) => panelGroups(root).find((group) => group.id === id)

/** [type, the type-specific group's top editors] */
const TYPE_SPECIFIC: [string, string[]][] = [
  ['text', ['data/autocomplete', 'data/password']],
  ['number', ['data/limit', 'data/selector', 'data/selector_only', 'data/decimals', 'data/money']],
  ['money', ['data/limit', 'data/selector', 'data/selector_only', 'data/decimals', 'data/money']],
  [
    'select',
    [
      'data/options',
      'data/multiple',
      'data/mode',
      'data/order_random',
      'data/order',
      'data/asc',
      'data/return_id',
      'data/placeholder',
    ],
  ],
  ['file', ['data/ext', 'data/preview', 'data/allowActiveContent', 'data/idcard']],
  ['level', ['data/levels', 'data/body', 'data/fill', 'data/withoutcolor']],
  ['users', ['data/multiple', 'data/reduce', 'data/ref/selector']],
  ['table', ['data/ref/table']],
]

test.group('property panel: groups', () => {
  test('the common groups come first, in order, with the keys of spec 000 §3', ({ assert }) => {
    const groups = panelGroups(tree('text'))
    assert.deepEqual(
      groups.map((g) => g.id),
      ['general', 'label', 'reference', 'validation', 'state', 'design', 'type', 'advanced', 'events', 'logic']
    )
    const byId = Object.fromEntries(groups.map((g) => [g.id, paths(g.nodes)]))
    assert.deepEqual(byId.general, ['field_name'])
    assert.deepEqual(byId.label, ['data/label/value', 'data/label/description', 'data/label/subtitle'])
    assert.deepEqual(byId.reference, [
      'data/ref/value',
      'data/ref/placeholder',
      'data/ref/tooltip',
      'data/ref/limit',
      'data/ref/mask',
      'data/ref/pattern',
      // The text types' own minimum length, beside the maximum.
      'data/ref/min_length',
    ])
    assert.deepEqual(byId.validation, ['data/validate/required', 'data/validate/messages'])
    assert.deepEqual(byId.state, ['state/show', 'state/natural', 'state/see'])
    assert.deepEqual(byId.design!.slice(0, 4), ['data/design/responsive', 'data/width', 'data/height', 'data/space'])
    assert.includeMembers(byId.design!, ['data/design/paddings', 'data/design/border', 'data/design/colors'])
    assert.includeMembers(byId.logic!, [
      'data/show_with_formule',
      'data/formule',
      'data/on_change',
      'data/on_mouse_leave',
    ])
    assert.includeMembers(byId.advanced!, [
      'component',
      'isSet',
      'set',
      'idset',
      'no_display',
      'show_on_task',
      'saveable',
    ])
    assert.lengthOf(byId.events!, 10)
  })

  test('{$self}: the type-specific settings')
    .with(TYPE_SPECIFIC.map((c) => Object.assign(c, { toString: () => c[0] })))
    .run(({ assert }, [type, expected]) => {
      assert.deepEqual(paths(groupOf(tree(type), 'type')!.nodes), expected)
    })

  test('every editor of every registered type is in exactly one group', ({ assert }) => {
    for (const fieldType of registry.list()) {
      const root = describeSchema(fieldType.schema as JsonSchema)
      const placed = panelGroups(root).flatMap((g) => g.nodes.flatMap(leaves).map((n) => n.path.join('/')))
      const all = leaves(root)
        .map((n) => n.path.join('/'))
        // Translations are edited in each text's own row (TranslatedLeaf), not in a group.
        .filter((path) => path !== 'type' && !path.startsWith('translations/'))
      assert.sameMembers(placed, all, fieldType.type)
      assert.equal(new Set(placed).size, placed.length, `${fieldType.type}: an editor shown twice`)
      for (const g of panelGroups(root)) assert.include(GROUP_IDS, g.id)
    }
  })

  test('a type that redefines a common key keeps it with the design keys (file height 90)', ({ assert }) => {
    const design = groupOf(tree('file'), 'design')!
    const height = design.nodes.find((n) => n.key === 'height')!
    assert.equal(height.default, 90)
    assert.notInclude(paths(groupOf(tree('file'), 'type')!.nodes), 'data/height')
  })

  test('multi-select: the name is not editable; the keys shown are those every type has', ({ assert }) => {
    const shared = commonNode(registry, [item('text'), item('number')])!
    const groups = panelGroups(shared, false)
    assert.notInclude(
      groups.map((g) => g.id),
      'general'
    )
    assert.isUndefined(
      groups.find((g) => g.id === 'type'),
      'text and number share no type-specific key'
    )
    const validation = groups.find((g) => g.id === 'validation')!.nodes
    assert.deepEqual(paths(validation), ['data/validate/required', 'data/validate/messages'])
    // Only the message both types word: required (text words its pattern, number its bounds).
    assert.deepEqual(
      validation[1]!.children!.map((n) => n.key),
      ['required']
    )
  })
})
