import { test } from '@japa/runner'
import fc from 'fast-check'
import { coerceExternalValue, type ExternalOption, type ExternalValue } from '../../src/rules/index.js'

const options: ExternalOption[] = [
  { id: 1, label: 'Bogotá' },
  { id: 'b', label: 'Medellín' },
  { id: 3, label: 'Cali' },
]
const single = (type: string) => ({ type, data: { options } })
const multiple = (type: string) => ({ type, data: { options, multiple: true } })

test.group('coerceExternalValue: number and money', () => {
  const rows: [type: string, text: string, expected: number | ''][] = [
    ['number', '1.234', 1.234],
    ['number', '1,5', 1.5],
    ['number', '$ 1.500', 1.5],
    ['number', '-42', -42],
    ['number', ' 7 ', 7],
    ['number', 'abc', ''],
    ['number', '', ''],
    ['number', '-', ''],
    ['number', '.', ''],
    ['number', '1.2.3', ''],
    ['number', '1.234,56', ''],
    ['number', '5-3', ''],
    ['number', '1e5', 15],
    ['money', '$ 25000', 25000],
    ['money', 'COP 2500,75', 2500.75],
  ]
  for (const [type, text, expected] of rows) {
    test(`${type} ${JSON.stringify(text)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(coerceExternalValue({ type }, text), expected)
    })
  }

  test('any text gives a finite number or an empty string', () => {
    fc.assert(
      fc.property(fc.constantFrom('number', 'money'), fc.string(), (type, text) => {
        const out = coerceExternalValue({ type }, text)
        return out === '' || (typeof out === 'number' && Number.isFinite(out))
      })
    )
  })

  test('a number printed with String() coerces back to itself', () => {
    // String() switches to exponent notation outside this range, and the rule strips the 'e'.
    const plain = fc
      .double({ min: -1e20, max: 1e20, noNaN: true })
      .filter((n) => !String(n).includes('e') && (n === 0 || Math.abs(n) >= 1e-6))
    fc.assert(fc.property(plain, (n) => coerceExternalValue({ type: 'number' }, String(n)) === n))
  })
})

test.group('coerceExternalValue: select, list, radios', () => {
  const rows: [field: { type: string; data: object }, text: string, expected: ExternalValue][] = [
    [single('select'), '1', 1],
    [single('select'), 'b', 'b'],
    [single('select'), ' 3 ', 3],
    [single('select'), 'cal', 3],
    [single('list'), 'MEDELL', 'b'],
    [single('radios'), 'bogotá', 1],
    [single('select'), 'bogota', ''],
    [single('select'), 'zzz', ''],
    [single('select'), '', ''],
    [single('select'), '1,b', ''],
    [multiple('select'), '1, b', [1, 'b']],
    [multiple('list'), 'cali,bog', [3, 1]],
    [multiple('select'), '1,1,bogotá', [1]],
    [multiple('select'), 'x,cali', [3]],
    [multiple('select'), '', []],
    [multiple('radios'), ',,', []],
    [{ type: 'select', data: {} }, '1', ''],
  ]
  for (const [field, text, expected] of rows) {
    const kind = 'multiple' in field.data ? `${field.type} (multiple)` : field.type
    test(`${kind} ${JSON.stringify(text)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.deepEqual(coerceExternalValue(field, text), expected)
    })
  }

  test('an id match wins over an earlier option whose label contains the text', ({ assert }) => {
    const field = {
      type: 'select',
      data: {
        options: [
          { id: '2', label: 'Opción 1' },
          { id: '1', label: 'Opción 2' },
        ],
      },
    }
    assert.strictEqual(coerceExternalValue(field, '1'), '1')
    assert.strictEqual(coerceExternalValue(field, 'opción'), '2')
  })

  const optionsArb = (idArb: fc.Arbitrary<string | number>) =>
    fc.uniqueArray(fc.record({ id: idArb, label: fc.string() }), {
      minLength: 1,
      maxLength: 8,
      selector: (option) => String(option.id).trim(),
    })
  const anyId = fc.oneof(
    fc.integer(),
    fc.string({ minLength: 1 }).filter((s) => s.trim() !== '')
  )

  test("coercing an option's id gives that id", () => {
    fc.assert(
      fc.property(optionsArb(anyId), fc.nat(), (opts, pick) => {
        const option = opts[pick % opts.length]!
        return coerceExternalValue({ type: 'select', data: { options: opts } }, String(option.id)) === option.id
      })
    )
  })

  test('a multiple field given ids joined by commas gives those ids', () => {
    const idNoComma = fc.oneof(
      fc.integer(),
      fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !s.includes(','))
    )
    fc.assert(
      fc.property(optionsArb(idNoComma), fc.array(fc.nat()), (opts, picks) => {
        const chosen = [...new Set(picks.map((p) => opts[p % opts.length]!.id))]
        const out = coerceExternalValue(
          { type: 'list', data: { options: opts, multiple: true } },
          chosen.map(String).join(',')
        )
        return Array.isArray(out) && out.length === chosen.length && out.every((id, i) => id === chosen[i])
      })
    )
  })
})

test.group('coerceExternalValue: checkbox, switch, radio and other types', () => {
  const booleans: [text: string, expected: boolean][] = [
    ['true', true],
    ['TRUE', true],
    [' True ', true],
    ['false', false],
    ['1', false],
    ['yes', false],
    ['truex', false],
    ['', false],
  ]
  for (const type of ['checkbox', 'switch', 'radio']) {
    for (const [text, expected] of booleans) {
      test(`${type} ${JSON.stringify(text)} → ${expected}`, ({ assert }) => {
        assert.strictEqual(coerceExternalValue({ type }, text), expected)
      })
    }
  }

  const others: [type: string, text: string][] = [
    ['text', ' Hello, World '],
    ['textarea', 'true'],
    ['date', '2024-01-31'],
    ['email', 'a@b.co'],
    ['users', '1,2'],
  ]
  for (const [type, text] of others) {
    test(`${type} keeps ${JSON.stringify(text)} unchanged`, ({ assert }) => {
      assert.strictEqual(coerceExternalValue({ type }, text), text)
    })
  }
})
