import { test } from '@japa/runner'
import {
  LUMINANCE_THRESHOLD,
  PRIMARY_COLOR,
  luminance,
  parseColor,
  textColorFor,
  type Rgb,
} from '../../src/rules/index.js'

test.group('textColorFor (black above luminance 0.179, else white)', () => {
  const rows: [background: string, expected: '#000000' | '#ffffff'][] = [
    [PRIMARY_COLOR, '#ffffff'],
    ['#000', '#ffffff'],
    ['#7f0000', '#ffffff'],
    ['rgb(30, 30, 30)', '#ffffff'],
    ['#757575', '#ffffff'],
    ['#ffffff', '#000000'],
    ['#FFF', '#000000'],
    ['#7f82ff', '#000000'],
    ['#ffeb3b', '#000000'],
    ['rgba(255, 255, 255, 0.5)', '#000000'],
    ['#767676', '#000000'],
    ['not a colour', '#000000'],
  ]
  for (const [background, expected] of rows) {
    test(`${background} → ${expected}`, ({ assert }) => {
      assert.strictEqual(textColorFor(background), expected)
    })
  }

  test('the threshold sits between #757575 and #767676', ({ assert }) => {
    assert.equal(LUMINANCE_THRESHOLD, 0.179)
    assert.isAbove(luminance(parseColor('#767676')!), LUMINANCE_THRESHOLD)
    assert.isBelow(luminance(parseColor('#757575')!), LUMINANCE_THRESHOLD)
    assert.equal(luminance([0, 0, 0]), 0)
    assert.closeTo(luminance([255, 255, 255]), 1, 1e-12)
  })

  const parsed: [string, Rgb | null][] = [
    ['#1C1066', [28, 16, 102]],
    ['1c1066', [28, 16, 102]],
    ['#abc', [170, 187, 204]],
    ['#11223344', [17, 34, 51]],
    ['rgb(1 2 3 / 50%)', [1, 2, 3]],
    ['rgb(300, -1, 0)', null],
    ['rgb(300, 1, 0)', [255, 1, 0]],
    ['teal', null],
    ['#12', null],
  ]
  for (const [input, expected] of parsed) {
    test(`parseColor(${JSON.stringify(input)})`, ({ assert }) => {
      assert.deepEqual(parseColor(input), expected)
    })
  }
})
