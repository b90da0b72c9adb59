import { test } from '@japa/runner'
import { canonicalJson, sideBySide, withContext } from '../src/versions/side_by_side.js'

test.group('versions side by side', () => {
  test('canonical JSON sorts keys at every level and keeps array order', ({ assert }) => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }),
      canonicalJson({ a: { c: null, d: [3, { y: 2, z: 1 }] }, b: 1 })
    )
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]))
    assert.equal(canonicalJson(undefined), 'null')
  })

  test('unchanged, changed, removed and added lines line up with their numbers', ({ assert }) => {
    const before = ['a', 'b', 'c', 'd', 'e'].join('\n')
    const after = ['a', 'B', 'c', 'e', 'f', 'g'].join('\n')
    const rows = sideBySide(before, after).map((r) => [
      r.kind,
      r.left ? `${r.left.line}:${r.left.text}` : '',
      r.right ? `${r.right.line}:${r.right.text}` : '',
    ])
    assert.deepEqual(rows, [
      ['same', '1:a', '1:a'],
      ['changed', '2:b', '2:B'],
      ['same', '3:c', '3:c'],
      ['removed', '4:d', ''],
      ['same', '5:e', '4:e'],
      ['added', '', '5:f'],
      ['added', '', '6:g'],
    ])
  })

  test('a field added to a form shows as added lines only', ({ assert }) => {
    const v1 = { fields: [{ field_name: 'nombre', type: 'text' }] }
    const v2 = {
      fields: [
        { field_name: 'nombre', type: 'text' },
        { type: 'number', field_name: 'edad' },
      ],
    }
    const rows = sideBySide(canonicalJson(v1), canonicalJson(v2))
    assert.isTrue(rows.filter((r) => r.kind !== 'same').every((r) => r.kind === 'added' || r.kind === 'changed'))
    assert.isTrue(rows.some((r) => r.right?.text.includes('"edad"')))
    assert.deepEqual(
      sideBySide(canonicalJson(v1), canonicalJson(v1)).filter((r) => r.kind !== 'same'),
      []
    )
  })

  test('context keeps changed rows and their neighbours, with one gap marker per run skipped', ({ assert }) => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')
    const after = before.replace('l10', 'L10')
    const shown = withContext(sideBySide(before, after), 2)
    assert.deepEqual(
      shown.map((r) => (r === null ? '…' : r.left!.text)),
      ['…', 'l8', 'l9', 'l10', 'l11', 'l12', '…']
    )
    assert.deepEqual(withContext(sideBySide('a\nb', 'a\nb')), [null])
  })
})
