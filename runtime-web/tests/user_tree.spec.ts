import { test } from '@japa/runner'
import { filterTree, flattenTree, type TreeNode } from '../src/lib/user_tree.js'

const node = (id: number, username: string, children: TreeNode[] = []): TreeNode => ({
  id,
  username,
  first_name: username.toUpperCase(),
  last_name: 'Ruiz',
  children,
})

const tree = [node(1, 'rectora', [node(2, 'profe', [node(3, 'alumna')]), node(4, 'secretario')]), node(5, 'raiz')]

test.group('user tree search', () => {
  test('a match keeps the branch above it and drops its unmatched siblings', ({ assert }) => {
    const found = filterTree(tree, 'alum')
    assert.lengthOf(found, 1)
    assert.equal(found[0].username, 'rectora')
    assert.deepEqual(
      found[0].children.map((n) => n.username),
      ['profe']
    )
    assert.equal(found[0].children[0].children[0].username, 'alumna')
  })

  test('a matching node keeps all its subordinates; names and case count; blank shows all', ({ assert }) => {
    const found = filterTree(tree, 'PROFE')
    assert.deepEqual(
      found[0].children[0].children.map((n) => n.username),
      ['alumna']
    )
    assert.lengthOf(filterTree(tree, 'ruiz'), 2)
    assert.strictEqual(filterTree(tree, '  '), tree)
    assert.deepEqual(filterTree(tree, 'nadie'), [])
  })

  test('flattening lists every user once, depth first', ({ assert }) => {
    assert.deepEqual(
      flattenTree(tree).map((p) => p.id),
      [1, 2, 3, 4, 5]
    )
  })
})
