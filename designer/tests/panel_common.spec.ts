import { test } from '@japa/runner'
import { coreRegistry, type ItemKind } from '@tramita/contract'
import { commonNode, type PanelItem } from '../src/panel/common.js'
import { leaves, nodeAt } from '../src/panel/schema_nodes.js'

const registry = coreRegistry()
const item = (type: string, kind: ItemKind = 'field'): PanelItem => ({
  name: `${type}_1`,
  kind,
  item: { field_name: `${type}_1`, type },
})
const keys = (types: [string, ItemKind?][]) => {
  const node = commonNode(
    registry,
    types.map(([type, kind]) => item(type, kind))
  )
  return new Set(leaves(node!).map((leaf) => leaf.path.join('/')))
}

/** [selected types, keys they all show, keys some lack] */
const CASES: [string, [string, ItemKind?][], string[], string[]][] = [
  ['number + money', [['number'], ['money']], ['data/money/currency', 'data/decimals/significant'], []],
  ['select + radios', [['select'], ['radios']], ['data/options', 'data/mode'], []],
  ['select + file', [['select'], ['file']], ['data/label/value', 'data/ref/limit'], ['data/options', 'data/ext']],
  [
    'users + level + table',
    [['users'], ['level'], ['table']],
    ['data/validate/required'],
    ['data/reduce/users', 'data/levels'],
  ],
  [
    'text + a save button',
    [['text'], ['save', 'element']],
    ['data/design/responsive/mobile'],
    ['data/password', 'data/value'],
  ],
]

test.group('property panel: multi-select', () => {
  test('{$self}')
    .with(CASES.map((c) => Object.assign(c, { toString: () => c[0] })))
    .run(({ assert }, [, types, shown, hidden]) => {
      const found = keys(types)
      for (const key of shown) assert.isTrue(found.has(key), `${key} shown`)
      for (const key of hidden) assert.isFalse(found.has(key), `${key} hidden`)
    })

  test('a default the types do not share is not shown (money on for money, off for number)', ({ assert }) => {
    const shared = commonNode(registry, [item('number'), item('money')])!
    assert.isUndefined(nodeAt(shared, ['data', 'money', 'enabled'])!.default)
    assert.equal(nodeAt(shared, ['data', 'money', 'currency'])!.default, 'COP')
    const heights = commonNode(registry, [item('file'), item('text')])!
    assert.isUndefined(nodeAt(heights, ['data', 'height'])!.default, 'file 90, text 45')
    const modes = commonNode(registry, [item('select'), item('list')])!
    assert.isUndefined(nodeAt(modes, ['data', 'mode'])!.default, 'dropdown and list')
    assert.deepEqual(nodeAt(modes, ['data', 'mode'])!.options, ['list', 'dropdown'])
  })

  test('one item shows its whole type; an unregistered type shows nothing', ({ assert }) => {
    assert.includeMembers([...keys([['table']])], ['data/ref/table/columns', 'data/ref/table/pagination/start'])
    assert.isUndefined(commonNode(registry, [item('text'), item('nope')]))
    assert.isUndefined(commonNode(registry, []))
  })
})
