import { test } from '@japa/runner'
import fc from 'fast-check'
import {
  clampNumber,
  normalizeNumberInput,
  numberBounds,
  parseDecimal,
  toPlainDecimal,
  truncateDecimals,
  type DecimalsSetting,
  type NumberBounds,
  type NumberInputOptions,
  type NumberLimit,
} from '../../src/rules/index.js'

/** Digits after the point of a number as JavaScript prints it, exponent notation included (independent of the code under test). */
function decimalsOf(n: number): number {
  const [mantissa, exp = '0'] = String(n).split('e')
  const fraction = mantissa!.split('.')[1] ?? ''
  return Math.max(0, fraction.length - Number(exp))
}

test.group('numberBounds and clampNumber (negative means no bound)', () => {
  const bounds: [NumberLimit, NumberBounds][] = [
    [
      { min: -1, max: -1 },
      { min: null, max: null },
    ],
    [
      { min: 0, max: 100 },
      { min: 0, max: 100 },
    ],
    [{ min: 5 }, { min: 5, max: null }],
    [{ max: 0 }, { min: null, max: 0 }],
    [{}, { min: null, max: null }],
    [
      { min: Number.NaN, max: null },
      { min: null, max: null },
    ],
    [
      { min: 1.5, max: -0.5 },
      { min: 1.5, max: null },
    ],
  ]
  for (const [limit, expected] of bounds) {
    test(`numberBounds(${JSON.stringify(limit)})`, ({ assert }) => {
      assert.deepEqual(numberBounds(limit), expected)
    })
  }

  const clamps: [n: number, NumberLimit, expected: number][] = [
    [150, { min: 0, max: 100 }, 100],
    [-5, { min: 0, max: 100 }, 0],
    [50, { min: 0, max: 100 }, 50],
    [-5, { min: -1, max: 10 }, -5],
    [1e9, { min: 3, max: -1 }, 1e9],
    [2, { min: 3, max: -1 }, 3],
    [50, {}, 50],
    [5, { min: 10, max: 3 }, 3],
  ]
  for (const [n, limit, expected] of clamps) {
    test(`clampNumber(${n}, ${JSON.stringify(limit)}) → ${expected}`, ({ assert }) => {
      assert.strictEqual(clampNumber(n, limit), expected)
    })
  }
})

test.group('truncateDecimals (truncate, never round)', () => {
  const on = (significant?: number): DecimalsSetting => ({ enabled: true, significant })
  const rows: [n: number, DecimalsSetting | undefined, expected: number][] = [
    [1.005, on(2), 1],
    [0.29, on(2), 0.29],
    [4.35, on(2), 4.35],
    [1.1, on(2), 1.1],
    [1.999, on(2), 1.99],
    [1.999, on(), 1.99],
    [1.999, { enabled: true, significant: -3 }, 1.99],
    [-1.999, on(2), -1.99],
    [1.23456, on(4), 1.2345],
    [1.5, on(0), 1],
    [0.1 + 0.2, on(2), 0.3],
    [1e-7, on(8), 1e-7],
    [1.2345e-7, on(9), 1.23e-7],
    [1e-7, on(2), 0],
    [1.999, { enabled: false, significant: 2 }, 1],
    [1.999, undefined, 1],
    [-7.9, undefined, -7],
    [1e21, undefined, 1e21],
    [42, on(2), 42],
  ]
  for (const [n, decimals, expected] of rows) {
    test(`truncateDecimals(${n}, ${JSON.stringify(decimals)}) → ${expected}`, ({ assert }) => {
      assert.strictEqual(truncateDecimals(n, decimals), expected)
    })
  }

  test('a truncated negative fraction is 0, not -0', ({ assert }) => {
    assert.isTrue(Object.is(truncateDecimals(-0.5), 0))
    assert.isTrue(Object.is(truncateDecimals(-0.001, { enabled: true }), 0))
  })

  test('non-finite numbers pass through', ({ assert }) => {
    assert.strictEqual(truncateDecimals(Infinity, { enabled: true }), Infinity)
    assert.isNaN(truncateDecimals(Number.NaN))
  })

  const plain: [number, string][] = [
    [1e-7, '0.0000001'],
    [1.5e21, '1500000000000000000000'],
    [-2.5e-7, '-0.00000025'],
    [123.45, '123.45'],
    [-0, '0'],
  ]
  for (const [n, expected] of plain) {
    test(`toPlainDecimal(${n}) → ${expected}`, ({ assert }) => {
      assert.strictEqual(toPlainDecimal(n), expected)
    })
  }

  test('truncation moves toward zero by less than one unit of the last kept digit', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 6 }), (n, significant) => {
        const t = truncateDecimals(n, { enabled: true, significant })
        const unit = 10 ** -significant
        return Math.abs(t) <= Math.abs(n) && Math.abs(n - t) < unit * (1 + 1e-9) && decimalsOf(t) <= significant
      })
    )
  })
})

test.group('normalizeNumberInput (parse, clamp, truncate; money empty → 0)', () => {
  const dec2: NumberInputOptions = { decimals: { enabled: true } }
  const rows: [raw: unknown, NumberInputOptions, expected: number | ''][] = [
    ['12.345', dec2, 12.34],
    ['12,5', dec2, 12.5],
    ['  42  ', {}, 42],
    ['7.9', {}, 7],
    ['-7.9', {}, -7],
    ['1e3', {}, 1000],
    [150, { limit: { min: 0, max: 100 } }, 100],
    ['-3', { limit: { min: 0 } }, 0],
    ['99.999', { limit: { min: 0, max: 100 }, decimals: { enabled: true, significant: 1 } }, 99.9],
    ['abc', {}, ''],
    ['', {}, ''],
    ['0x10', {}, ''],
    ['Infinity', {}, ''],
    ['1.000.000', {}, ''],
    ['1,5,0', {}, ''],
    [null, {}, ''],
    [undefined, {}, ''],
    [true, {}, ''],
    [Number.NaN, {}, ''],
    ['', { money: true }, 0],
    ['abc', { money: true }, 0],
    [Number.NaN, { money: true }, 0],
    ['2500.75', { money: true, decimals: { enabled: true } }, 2500.75],
    ['2500.75', { money: true }, 2500],
  ]
  for (const [raw, options, expected] of rows) {
    test(`${JSON.stringify(raw)} with ${JSON.stringify(options)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(normalizeNumberInput(raw, options), expected)
    })
  }

  test('parseDecimal reads one comma as the point and refuses the rest', ({ assert }) => {
    assert.strictEqual(parseDecimal('3,25'), 3.25)
    assert.strictEqual(parseDecimal('.5'), 0.5)
    assert.strictEqual(parseDecimal('-5.'), -5)
    assert.isNull(parseDecimal('1,234.5'))
    assert.isNull(parseDecimal('-'))
    assert.isNull(parseDecimal('1e999'))
  })

  test('a number stays within integer bounds and never has more decimals than configured', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).map(String)
        ),
        fc.nat({ max: 1000 }),
        fc.nat({ max: 1000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 6 }),
        (raw, a, b, enabled, significant) => {
          const [min, max] = a <= b ? [a, b] : [b, a]
          const out = normalizeNumberInput(raw, { limit: { min, max }, decimals: { enabled, significant } })
          return typeof out === 'number' && out >= min && out <= max && decimalsOf(out) <= (enabled ? significant : 0)
        }
      )
    )
  })

  test('without bounds the result keeps the sign and at most the configured decimals', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 8 }), (n, s) => {
        const out = normalizeNumberInput(n, { decimals: { enabled: true, significant: s } })
        return typeof out === 'number' && (out === 0 || Math.sign(out) === Math.sign(n)) && decimalsOf(out) <= s
      })
    )
  })
})
