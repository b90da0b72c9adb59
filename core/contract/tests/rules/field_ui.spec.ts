import { test } from '@japa/runner'
import {
  PHONE_CALLING_CODES,
  PHONE_COUNTRIES,
  callingCode,
  celularValue,
  checkText,
  hasReduce,
  reduceById,
  reduceUsers,
  shapeText,
  userPassesReduce,
  type ReduceLists,
  type TextRuleOptions,
} from '../../src/rules/index.js'

test.group('shapeText (what a text field shows while typing)', () => {
  const rows: [value: string, options: TextRuleOptions, expected: string][] = [
    ['hello', {}, 'hello'],
    ['hello', { limit: 3 }, 'hel'],
    ['hello', { limit: -1 }, 'hello'],
    ['hello', { limit: 0 }, 'hello'],
    ['😀😀😀', { limit: 2 }, '😀😀'],
    ['3001234567', { limit: 3, mask: '(###) ###-####' }, '(300) 123-4567'],
    ['30012', { mask: '(###) ###-####' }, '(300) 12'],
    // The pattern does not cut what is shown: an invalid value stays visible (checkText emits '').
    ['abc', { limit: 5, pattern: '[0-9]+' }, 'abc'],
  ]
  for (const [value, options, expected] of rows) {
    test(`${JSON.stringify(value)} with ${JSON.stringify(options)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(shapeText(value, options), expected)
    })
  }

  test('checkText emits the shaped text when valid', ({ assert }) => {
    for (const [value, options] of rows) {
      const check = checkText(value, options)
      if (check.valid) assert.strictEqual(check.emitted, shapeText(value, options))
    }
  })
})

test.group('reduce lists of the people selectors (spec 000 §6)', () => {
  const ana = { code: 1, label: 'Ana', allData: { areas: [10], rol_user: [2] } }
  const beto = { code: 2, label: 'Beto', allData: { areas: [10], rol_user: [3] } }
  const caro = { code: 3, label: 'Caro', allData: { areas: [20], rol_user: [2] } }
  const dani = { code: '4', label: 'Dani' }
  const all = [ana, beto, caro, dani]
  const rows: [ReduceLists | null | undefined, string[]][] = [
    [undefined, ['Ana', 'Beto', 'Caro', 'Dani']],
    [null, ['Ana', 'Beto', 'Caro', 'Dani']],
    [{}, ['Ana', 'Beto', 'Caro', 'Dani']],
    [{ areas: [], roles: [], users: [] }, ['Ana', 'Beto', 'Caro', 'Dani']],
    [{ users: [2] }, ['Beto']],
    [{ users: ['4', '1'] }, ['Ana', 'Dani']],
    [{ areas: [10] }, ['Ana', 'Beto']],
    [{ roles: ['2'] }, ['Ana', 'Caro']],
    [{ areas: [10], roles: [2] }, ['Ana']],
    [{ areas: [10], roles: [2], users: [3] }, ['Ana', 'Caro']],
    [{ areas: [99] }, []],
    [{ users: [99] }, []],
  ]
  for (const [reduce, expected] of rows) {
    test(`reduce ${JSON.stringify(reduce)} → ${expected.join(', ') || 'none'}`, ({ assert }) => {
      assert.deepEqual(
        reduceUsers(all, reduce).map((u) => u.label),
        expected
      )
    })
  }

  test('a user without areas or roles passes only by being listed', ({ assert }) => {
    assert.isFalse(userPassesReduce(dani, { areas: [10] }))
    assert.isTrue(userPassesReduce(dani, { users: [4] }))
    assert.isTrue(userPassesReduce(dani, {}))
  })

  test('hasReduce', ({ assert }) => {
    assert.isFalse(hasReduce(undefined))
    assert.isFalse(hasReduce({ areas: [], roles: [] }))
    assert.isTrue(hasReduce({ roles: [0] }))
  })

  test('reduceById keeps the listed areas or roles, or all when none is listed', ({ assert }) => {
    const areas = [
      { id: 10, name: 'Norte' },
      { id: 20, name: 'Sur' },
    ]
    assert.deepEqual(
      reduceById(areas, ['20'], (a) => a.id),
      [areas[1]]
    )
    assert.deepEqual(
      reduceById(areas, [], (a) => a.id),
      areas
    )
    assert.deepEqual(
      reduceById(areas, undefined, (a) => a.id),
      areas
    )
  })
})

test.group('celular value (spec 000 §3, §9)', () => {
  test('calling codes', ({ assert }) => {
    assert.equal(callingCode('CO'), '57')
    assert.equal(callingCode('co'), '57')
    assert.equal(callingCode('US'), '1')
    assert.equal(callingCode('ES'), '34')
    assert.equal(callingCode('CN'), '86')
    assert.equal(callingCode('ZZ'), '')
    assert.isAbove(PHONE_COUNTRIES.length, 240)
    for (const [country, code] of Object.entries(PHONE_CALLING_CODES)) {
      assert.match(country, /^[A-Z]{2}$/)
      assert.match(code, /^[1-9]\d{0,3}$/)
    }
  })

  const rows: [string, string, { code: string; value: string; string: string }][] = [
    ['CO', '300 123 4567', { code: 'CO', value: '3001234567', string: '+57 3001234567' }],
    ['mx', '(55) 1234-5678', { code: 'MX', value: '5512345678', string: '+52 5512345678' }],
    ['', '3001234567', { code: 'CO', value: '3001234567', string: '+57 3001234567' }],
    ['CO', '', { code: 'CO', value: '', string: '' }],
    ['CO', 'abc', { code: 'CO', value: '', string: '' }],
    ['ZZ', '123', { code: 'ZZ', value: '123', string: '123' }],
  ]
  for (const [country, typed, expected] of rows) {
    test(`${JSON.stringify(country)} + ${JSON.stringify(typed)}`, ({ assert }) => {
      assert.deepEqual(celularValue(country, typed), expected)
    })
  }
})
