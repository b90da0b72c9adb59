import { test } from '@japa/runner'
import { coreRegistry } from '@tramita/contract'
import { describeSchema, nodeAt, type JsonSchema } from '../src/panel/schema_nodes.js'
import { panelGroups } from '../src/panel/groups.js'
import {
  editorPaths,
  gatherProblems,
  listProblems,
  pointer,
  problemsAt,
  problemsUnder,
  unplacedProblems,
} from '../src/panel/problems.js'
import { indexProblems, setItemsValue, validateDocument, type DesignDocument } from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const registry = coreRegistry()
const root = (type: string) => describeSchema(registry.require('field', type).schema as JsonSchema)

/** [what is set, the type, the path inside the item] */
const INVALID: [string, string, string, unknown][] = [
  ['a text with 13 columns on a tablet', 'text', '/data/design/responsive/tablet', 13],
  ['a width of 20', 'number', '/data/width', 20],
  ['a currency of two letters', 'money', '/data/money/currency', 'CO'],
  ['a mode the select does not have', 'select', '/data/mode', 'grid'],
  ['eleven levels', 'level', '/data/levels', 11],
  ['a table page size of 0', 'table', '/data/ref/table/pagination/size', 0],
]

test.group('property panel: problems where they are typed', () => {
  test('{$self} is flagged at its editor')
    .with(INVALID.map((c) => Object.assign(c, { toString: () => c[0] })))
    .run(({ assert }, [, type, path, value]) => {
      let doc: DesignDocument = sampleDocument()
      doc = setItemsValue(['nombre'], ['type'], type)(doc)
      doc = setItemsValue(['nombre'], path, value)(doc)
      const own = indexProblems(doc, validateDocument(doc)).ofItem('nombre')
      assert.isNotEmpty(own, 'the contract finds a problem')
      const shown = gatherProblems(['nombre'], () => own)
      const keys = path.slice(1).split('/')
      assert.lengthOf(problemsAt(shown, keys), own.length, 'shown at the editor of that path')
      const paths = editorPaths(panelGroups(root(type)).flatMap((g) => g.nodes))
      assert.deepEqual(unplacedProblems(shown, paths.exact, paths.containers), [], 'nothing left for the panel top')
      assert.equal(shown[0]!.item, 'nombre')
    })

  test('a list shows the problems inside it that no entry editor shows; JSON pointers escape', ({ assert }) => {
    const columns = nodeAt(root('table'), ['data', 'ref', 'table', 'columns'])!
    const at = ['data', 'ref', 'table', 'columns']
    const problems = gatherProblems(['t'], () => [
      { path: '/data/ref/table/columns/0/name', message: 'too short' },
      { path: '/data/ref/table/columns/1', message: 'unknown key' },
      { path: '/data/ref/table/columns/0/buttons/0/zz', message: 'inside a nested list' },
    ])
    assert.deepEqual(
      listProblems(problems, columns, at, 2).map((p) => p.message),
      ['unknown key']
    )
    assert.lengthOf(problemsUnder(problems, at), 3)
    assert.equal(pointer(['a/b', 'c~d', 0]), '/a~1b/c~0d/0')
  })

  test('several items: each problem names its item; unknown paths go to the panel top', ({ assert }) => {
    const byItem: Record<string, { path: string; message: string }[]> = {
      a: [{ path: '/data/width', message: 'must be <= 12' }],
      b: [{ path: '/data/nope', message: 'must NOT have additional properties' }],
    }
    const shown = gatherProblems(['a', 'b'], (name) => byItem[name] ?? [])
    assert.deepEqual(
      shown.map((p) => p.item),
      ['a', 'b']
    )
    const paths = editorPaths(panelGroups(root('text')).flatMap((g) => g.nodes))
    assert.deepEqual(
      unplacedProblems(shown, paths.exact, paths.containers).map((p) => p.item),
      ['b']
    )
  })
})
