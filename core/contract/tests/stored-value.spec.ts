import { test } from '@japa/runner'
import fc from 'fast-check'
import { ValueShapeError, toStoredValue } from '../src/index.js'

const field = (type: string, data: Record<string, unknown> = {}) => ({ field_name: 'f', type, data })
const file = (name: string) => ({
  ext: name.split('.').pop()!,
  ip: '10.0.0.1',
  path: `uploads/${name}`,
  real_name: name,
  status: 'good',
})

/** [field, raw value, value_replace, value_simple] — the spec's examples (000 §3). */
const rows: [ReturnType<typeof field>, unknown, string, string][] = [
  [field('text'), 'Hola', 'Hola', 'Hola'],
  [field('text'), undefined, '', ''],
  [field('checkbox', { options: { true: 'Acepto', false: 'No acepto' } }), true, 'Acepto', 'true'],
  [field('checkbox', { options: { true: 'Acepto', false: 'No acepto' } }), false, 'No acepto', 'false'],
  [field('switch'), true, 'YES', 'true'],
  [field('switch'), false, 'NO', 'false'],
  [
    field('select', {
      multiple: true,
      options: [
        { id: 1, label: 'Uno' },
        { id: 2, label: 'Dos' },
        { id: 3, label: 'Tres' },
      ],
    }),
    [1, 3],
    'Uno, Tres',
    '[1,3]',
  ],
  [field('select', { options: [{ id: 'a', label: 'Alfa' }] }), 'a', 'Alfa', '["a"]'],
  [field('radios', { options: [{ id: 'a', label: 'Alfa' }] }), '', '', ''],
  [
    field('date', { range: true }),
    ['2026-01-10', '2026-01-20'],
    'desde el 2026-01-10 hasta el 2026-01-20',
    '["2026-01-10","2026-01-20"]',
  ],
  [
    field('date', { multiple: true }),
    ['2026-01-10', '2026-02-11', '2026-03-12'],
    '2026-01-10, 2026-02-11, 2026-03-12',
    '["2026-01-10","2026-02-11","2026-03-12"]',
  ],
  [field('date'), '2026-11-23', '2026-11-23', '2026-11-23'],
  [field('time', { range: true }), ['08:00', '10:30'], 'desde las 08:00 hasta las 10:30', '["08:00","10:30"]'],
  [
    field('signature'),
    { path: 'firmas/1.png', date: '2026/11/23 10:00:00', ip: '10.0.0.9', device: 'tablet' },
    'firmado el 2026/11/23 10:00:00 desde 10.0.0.9',
    'firmas/1.png',
  ],
  [field('signature'), '', 'sin firmar', ''],
  [field('level'), undefined, '', '-1'],
  [field('level'), 4, '4/5', '4'],
  [field('level', { body: { shape: [{ label: 'Malo' }, { label: 'Regular' }, { label: 'Bueno' }] } }), 3, 'Bueno', '3'],
  [field('file'), [file('a.pdf'), file('b.png')], 'a.pdf, b.png', JSON.stringify([file('a.pdf'), file('b.png')])],
  [field('image'), file('foto.jpg'), 'foto.jpg', 'uploads/foto.jpg'],
  [field('number'), 12.5, '12.5', '12.5'],
  [
    field('celular'),
    { code: 'CO', value: '3001234567', string: '+57 300 123 4567' },
    '+57 300 123 4567',
    '{"code":"CO","value":"3001234567","string":"+57 300 123 4567"}',
  ],
  [
    field('users', { multiple: true }),
    [
      { code: 7, label: 'Ana Díaz' },
      { code: 9, label: 'Luis Paz' },
    ],
    'Ana Díaz, Luis Paz',
    '[7,9]',
  ],
  [field('areas'), [{ id: 2, name: 'Talento humano' }], 'Talento humano', '[2]'],
  [field('table'), [{ id: 1 }, { id: 2 }], '2 filas', '[{"id":1},{"id":2}]'],
  [field('var', { var_type: 'json' }), { a: 1 }, '{"a":1}', '{"a":1}'],
]

test.group('toStoredValue', () => {
  test('the spec examples, type by type', ({ assert }) => {
    for (const [f, raw, replace, simple] of rows) {
      const stored = toStoredValue(f, raw)
      assert.equal(stored.type, f.type)
      assert.equal(stored.value_replace, replace, `${f.type} ${JSON.stringify(raw)}`)
      assert.equal(stored.value_simple, simple, `${f.type} ${JSON.stringify(raw)}`)
    }
  })

  test('level is -1 when unset', ({ assert }) => {
    assert.equal(toStoredValue(field('level'), undefined).value, -1)
  })

  test('money is shown through Intl for the field locale and currency', ({ assert }) => {
    const cop = (n: number) =>
      new Intl.NumberFormat('es-CO', {
        style: 'currency',
        currency: 'COP',
        maximumFractionDigits: 0,
        minimumFractionDigits: 0,
      }).format(n)
    assert.equal(toStoredValue(field('money'), 1234567).value_replace, cop(1234567))
    assert.match(toStoredValue(field('money'), 1234567).value_replace, /1\.234\.567/)
    const usd = toStoredValue(
      field('money', { money: { locate: 'en-US', currency: 'USD' }, decimals: { enabled: true } }),
      1234.5
    )
    assert.equal(usd.value_replace, '$1,234.50')
    const accounting = toStoredValue(
      field('money', { money: { locate: 'en-US', currency: 'USD', accountingSign: true } }),
      -5
    )
    assert.equal(accounting.value_replace, '($5)')
    assert.equal(
      toStoredValue(
        field('money', { money: { locate: 'en-US', currency: 'EUR', type_display: 'code' } }),
        3
      ).value_replace.replace(/\s/g, ' '),
      'EUR 3'
    )
  })

  test('texts follow the language', ({ assert }) => {
    const signed = { path: 'p.png', date: '2026/11/23', ip: '1.2.3.4', device: '' }
    assert.equal(
      toStoredValue(field('signature'), signed, { lang: 'en' }).value_replace,
      'signed on 2026/11/23 from 1.2.3.4'
    )
    assert.equal(toStoredValue(field('date', { range: true }), ['a', 'b'], { lang: 'en' }).value_replace, 'from a to b')
  })

  test('a value of the wrong shape is refused with the field and the path', ({ assert }) => {
    assert.throws(() => toStoredValue(field('number'), 'doce'), ValueShapeError)
    assert.throws(() => toStoredValue(field('file'), [{ path: 'x' }]), /"f".*\/0/)
    assert.throws(() => toStoredValue(field('nope'), 1), /Unknown field type/)
  })

  test('round trips: value_simple parses back to the ids or values (property)', () => {
    const id = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.integer())
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 6, selector: (v) => String(v) }), (ids) => {
        const options = ids.map((i) => ({ id: i, label: `L${String(i)}` }))
        const stored = toStoredValue(field('select', { multiple: true, options }), ids)
        return (
          JSON.stringify(JSON.parse(stored.value_simple)) === JSON.stringify(ids) &&
          stored.value_replace === options.map((o) => o.label).join(', ')
        )
      })
    )
    fc.assert(
      fc.property(
        fc.array(
          fc
            .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          { minLength: 1, maxLength: 5 }
        ),
        (dates) => {
          const stored = toStoredValue(field('date', { multiple: true }), dates)
          return (
            JSON.stringify(JSON.parse(stored.value_simple)) === JSON.stringify(dates) &&
            stored.value_replace.split(', ').length === dates.length
          )
        }
      )
    )
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (n) => Number(toStoredValue(field('number'), n).value_simple) === n
      )
    )
  })
})
