import { test } from '@japa/runner'
import { extensionOf, fileKindOf, modelFormatOf } from '../src/lib/preview.js'
import { findMatches, MAX_MATCHES, segmentText, stepMatch } from '../src/lib/text_search.js'

test.group('preview kinds of the viewers', () => {
  const kinds: [string, string][] = [
    ['informe.PDF', 'pdf'],
    ['script.py', 'text'],
    ['datos.json', 'text'],
    ['/files/app.ts?v=3', 'text'],
    ['consulta.SQL', 'text'],
    ['config.yaml', 'text'],
    ['servidor.log', 'text'],
    ['tabla.csv', 'text'],
    ['LEEME.md', 'text'],
    ['pagina.html', 'text'],
    ['pieza.glb', 'model'],
    ['pieza.gltf', 'model'],
    ['pieza.OBJ', 'model'],
    ['pieza.fbx', 'model'],
    ['pieza.dae', 'model'],
    ['pieza.stl', 'model'],
    ['nube.ply', 'model'],
    ['plano.dwg', 'other'],
    ['datos.xlsx', 'other'],
    ['pieza.3ds', 'other'],
  ]
  for (const [name, kind] of kinds) {
    test(`${name} previews as ${kind}`, ({ assert }) => {
      assert.equal(fileKindOf(name), kind)
    })
  }

  test('the model format comes from the name, path or URL; other files have none', ({ assert }) => {
    assert.equal(modelFormatOf('C:\\fakepath\\Pieza.STL'), 'stl')
    assert.equal(modelFormatOf('/data/files/x.glb#view'), 'glb')
    assert.isNull(modelFormatOf('blob:http://localhost/5f0c'))
    assert.isNull(modelFormatOf('pieza.json'))
    assert.equal(extensionOf('archivo.tar.gz'), 'gz')
    assert.equal(extensionOf('sin_extension'), 'sin_extension')
  })
})

test.group('text viewer search', () => {
  test('matches are literal, case-insensitive and in order', ({ assert }) => {
    assert.deepEqual(findMatches('Estado, estado y ESTADO', 'estado'), [
      { start: 0, end: 6 },
      { start: 8, end: 14 },
      { start: 17, end: 23 },
    ])
    // Regular-expression characters are text, not syntax.
    assert.deepEqual(findMatches('a.b axb (x) a.b', 'a.b'), [
      { start: 0, end: 3 },
      { start: 12, end: 15 },
    ])
    assert.lengthOf(findMatches('f(x) + f(y)', 'f('), 2)
    assert.lengthOf(findMatches('[1] \\d', '\\d'), 1)
  })

  test('an empty query or no occurrence finds nothing; matches do not overlap', ({ assert }) => {
    assert.deepEqual(findMatches('texto', ''), [])
    assert.deepEqual(findMatches('texto', 'zeta'), [])
    assert.deepEqual(findMatches('aaaa', 'aa'), [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ])
  })

  test('positions stay the text’s own where case folding changes lengths', ({ assert }) => {
    // 'İ'.toLowerCase() is two code units: lower-casing both strings would shift every later match.
    const text = 'İstanbul estado Estado'
    const found = findMatches(text, 'estado')
    assert.deepEqual(
      found.map((m) => text.slice(m.start, m.end)),
      ['estado', 'Estado']
    )
  })

  test('the count stops at the limit', ({ assert }) => {
    assert.lengthOf(findMatches('x'.repeat(MAX_MATCHES + 10), 'x'), MAX_MATCHES)
    assert.lengthOf(findMatches('xxxxx', 'x', 3), 3)
  })

  test('next and previous step through the matches and wrap around', ({ assert }) => {
    assert.equal(stepMatch(0, 4, 1), 1)
    assert.equal(stepMatch(3, 4, 1), 0)
    assert.equal(stepMatch(0, 4, -1), 3)
    assert.equal(stepMatch(2, 4, -1), 1)
    // No current match: next goes to the first, previous to the last.
    assert.equal(stepMatch(-1, 4, 1), 0)
    assert.equal(stepMatch(-1, 4, -1), 3)
    // A current index left over from a longer list starts again.
    assert.equal(stepMatch(9, 4, 1), 0)
    assert.equal(stepMatch(0, 0, 1), -1)
    assert.equal(stepMatch(0, 0, -1), -1)
  })

  test('the text is cut at the matches, each numbered in order', ({ assert }) => {
    const text = 'uno dos uno'
    assert.deepEqual(segmentText(text, findMatches(text, 'uno')), [
      { text: 'uno', match: 0 },
      { text: ' dos ' },
      { text: 'uno', match: 1 },
    ])
    assert.deepEqual(segmentText('abc', []), [{ text: 'abc' }])
    assert.deepEqual(segmentText('', []), [{ text: '' }])
    assert.equal(
      segmentText(text, findMatches(text, 'dos'))
        .map((s) => s.text)
        .join(''),
      text
    )
  })
})
