import { test } from '@japa/runner'
import { PRIMARY_COLOR, luminance, parseColor, textColorFor } from '../src/lib/color.js'

test.group('textColorFor (black above luminance 0.179, else white)', () => {
  test('dark backgrounds get white text', ({ assert }) => {
    assert.equal(textColorFor(PRIMARY_COLOR), '#ffffff')
    assert.equal(textColorFor('#000'), '#ffffff')
    assert.equal(textColorFor('#7f0000'), '#ffffff')
    assert.equal(textColorFor('rgb(30, 30, 30)'), '#ffffff')
  })

  test('light backgrounds get black text', ({ assert }) => {
    assert.equal(textColorFor('#ffffff'), '#000000')
    assert.equal(textColorFor('#FFF'), '#000000')
    assert.equal(textColorFor('#7f82ff'), '#000000')
    assert.equal(textColorFor('#ffeb3b'), '#000000')
    assert.equal(textColorFor('rgba(255, 255, 255, 0.5)'), '#000000')
  })

  test('the 0.179 threshold', ({ assert }) => {
    // #767676 has luminance ~0.181 (black text); #757575 ~0.178 (white text).
    assert.isAbove(luminance(parseColor('#767676')!), 0.179)
    assert.isBelow(luminance(parseColor('#757575')!), 0.179)
    assert.equal(textColorFor('#767676'), '#000000')
    assert.equal(textColorFor('#757575'), '#ffffff')
  })

  test('parseColor', ({ assert }) => {
    assert.deepEqual(parseColor('#1C1066'), [28, 16, 102])
    assert.deepEqual(parseColor('1c1066'), [28, 16, 102])
    assert.deepEqual(parseColor('#abc'), [170, 187, 204])
    assert.deepEqual(parseColor('#11223344'), [17, 34, 51])
    assert.deepEqual(parseColor('rgb(1 2 3 / 50%)'), [1, 2, 3])
    assert.isNull(parseColor('teal'))
    assert.isNull(parseColor('#12'))
  })

  test('unreadable colours are treated as light', ({ assert }) => {
    assert.equal(textColorFor('not a colour'), '#000000')
  })
})
