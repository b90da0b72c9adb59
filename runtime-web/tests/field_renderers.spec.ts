import { test } from '@japa/runner'
import {
  addEntry,
  dateInputType,
  formatDateText,
  formatTime,
  from12h,
  parseTime,
  peopleIdOf,
  peopleLabelOf,
  peopleValueOf,
  rangeValue,
  to12h,
} from '../src/form/renderers/fields/logic.js'
import {
  normalizeOptions,
  orderOptions,
  selectedIds,
  toggleId,
  type ChoiceOption,
} from '../src/form/renderers/fields/options.js'

const option = (id: string | number, label: string): ChoiceOption => ({ id, label, bgcolor: '', txcolor: '' })

test.group('field renderers: options', () => {
  test('normalizeOptions reads option objects, bare values and {value, text}; drops the rest', ({ assert }) => {
    assert.deepEqual(
      normalizeOptions([
        { id: 1, label: 'Uno', bgcolor: '#ff0000' },
        'dos',
        3,
        { value: 'c', text: 'Ce' },
        { id: 1, label: 'again' },
        null,
        { label: 'no id' },
      ]),
      [
        { id: 1, label: 'Uno', bgcolor: '#ff0000', txcolor: '' },
        { id: 'dos', label: 'dos', bgcolor: '', txcolor: '' },
        { id: 3, label: '3', bgcolor: '', txcolor: '' },
        { id: 'c', label: 'Ce', bgcolor: '', txcolor: '' },
      ]
    )
    assert.deepEqual(normalizeOptions('x'), [])
  })

  const options = [option('b', 'banana'), option('a', 'Árbol'), option('c', 'cereza'), option('d', 'damasco')]

  test('order by label ascending and descending, accents and case ignored', ({ assert }) => {
    assert.deepEqual(
      orderOptions(options, { order: true }, 0).map((o) => o.id),
      ['a', 'b', 'c', 'd']
    )
    assert.deepEqual(
      orderOptions(options, { order: true, asc: false }, 0).map((o) => o.id),
      ['d', 'c', 'b', 'a']
    )
    assert.deepEqual(
      orderOptions(options, {}, 0).map((o) => o.id),
      ['b', 'a', 'c', 'd']
    )
  })

  test('random order is stable for one seed, survives added options, and varies between seeds', ({ assert }) => {
    const first = orderOptions(options, { order_random: true }, 0.42).map((o) => o.id)
    assert.deepEqual(
      orderOptions(options, { order_random: true }, 0.42).map((o) => o.id),
      first
    )
    const grown = orderOptions([...options, option('e', 'E')], { order_random: true }, 0.42)
      .map((o) => o.id)
      .filter((id) => id !== 'e')
    assert.deepEqual(grown, first)
    const orders = new Set(
      [0.1, 0.2, 0.3, 0.5, 0.7, 0.9].map((seed) =>
        orderOptions(options, { order_random: true }, seed)
          .map((o) => o.id)
          .join()
      )
    )
    assert.isAbove(orders.size, 1)
  })

  test('selected ids and toggling', ({ assert }) => {
    assert.deepEqual(selectedIds(''), [])
    assert.deepEqual(selectedIds(2), [2])
    assert.deepEqual(selectedIds(['a', 1, null]), ['a', 1])
    assert.deepEqual(toggleId([1, 'b'], '1'), ['b'])
    assert.deepEqual(toggleId([1], 'b'), [1, 'b'])
  })
})

test.group('field renderers: dates and times', () => {
  test('native input per date_type', ({ assert }) => {
    assert.equal(dateInputType('date'), 'date')
    assert.equal(dateInputType('datetime'), 'datetime-local')
    assert.equal(dateInputType('month'), 'month')
    assert.equal(dateInputType('year'), 'number')
  })

  test('a range is stored once both ends are given, in order', ({ assert }) => {
    assert.deepEqual(rangeValue('2026-01-05', ''), [])
    assert.deepEqual(rangeValue('', '2026-01-05'), [])
    assert.deepEqual(rangeValue('2026-01-05', '2026-02-01'), ['2026-01-05', '2026-02-01'])
    assert.deepEqual(rangeValue('2026-02-01', '2026-01-05'), ['2026-01-05', '2026-02-01'])
    assert.deepEqual(rangeValue('18:00', '08:30'), ['08:30', '18:00'])
  })

  test('multiple dates: once each, sorted', ({ assert }) => {
    assert.deepEqual(addEntry(['2026-03-01'], '2026-01-01'), ['2026-01-01', '2026-03-01'])
    assert.deepEqual(addEntry(['2026-03-01'], '2026-03-01'), ['2026-03-01'])
    assert.deepEqual(addEntry(['2026-03-01'], ''), ['2026-03-01'])
  })

  test('time parts and the 12-hour clock', ({ assert }) => {
    assert.deepEqual(parseTime('07:05'), { h: 7, m: 5, s: 0 })
    assert.deepEqual(parseTime('23:59:58'), { h: 23, m: 59, s: 58 })
    assert.isNull(parseTime('24:00'))
    assert.isNull(parseTime('7:05'))
    assert.equal(formatTime({ h: 7, m: 5, s: 9 }, false), '07:05')
    assert.equal(formatTime({ h: 7, m: 5, s: 9 }, true), '07:05:09')
    assert.deepEqual(to12h(0), { hour: 12, pm: false })
    assert.deepEqual(to12h(12), { hour: 12, pm: true })
    assert.deepEqual(to12h(15), { hour: 3, pm: true })
    assert.equal(from12h(12, false), 0)
    assert.equal(from12h(12, true), 12)
    assert.equal(from12h(3, true), 15)
    for (let h = 0; h < 24; h++) assert.equal(from12h(to12h(h).hour, to12h(h).pm), h)
  })

  test('inline words of a date', ({ assert }) => {
    assert.equal(formatDateText('2026-03-03', 'date', 'es'), 'martes, 3 de marzo de 2026')
    assert.equal(formatDateText('2026-03', 'month', 'en'), 'March 2026')
    assert.equal(formatDateText('2026', 'year', 'es'), '2026')
    assert.equal(formatDateText('not a date', 'date', 'es'), 'not a date')
  })
})

test.group('field renderers: people values', () => {
  test('each kind gets the contract shape and nothing more', ({ assert }) => {
    const user = { code: 7, label: 'Ana Ruiz', photo: '', allData: { areas: [1], rol_user: [2] }, extra: 'x' }
    assert.deepEqual(peopleValueOf('users', user), {
      code: 7,
      label: 'Ana Ruiz',
      allData: { areas: [1], rol_user: [2] },
    })
    assert.deepEqual(peopleValueOf('users', { code: 8, label: 'Beto', photo: '/p.png' }), {
      code: 8,
      label: 'Beto',
      photo: '/p.png',
    })
    assert.deepEqual(peopleValueOf('areas', { code: 3, label: 'Norte', color: '#123456' }), {
      id: 3,
      name: 'Norte',
      color: '#123456',
    })
    assert.deepEqual(peopleValueOf('roles', { code: 2, label: 'teacher' }), { id: 2, name: 'teacher' })
    assert.deepEqual(
      peopleValueOf('machines', {
        code: 'tok',
        label: 'HP',
        ubication: 'Piso 2',
        model: 'HP 400',
        ip: '10.0.0.9',
        trays: [{ name: 'Bandeja 1' }],
      }),
      { token: 'tok', ubication: 'Piso 2', model: 'HP 400', ip: '10.0.0.9', trays: [{ name: 'Bandeja 1' }] }
    )
  })

  test('ids and labels of picked entries', ({ assert }) => {
    assert.equal(peopleIdOf('users', { code: 7 }), '7')
    assert.equal(peopleIdOf('areas', { id: 3, name: 'Norte' }), '3')
    assert.equal(peopleIdOf('machines', { token: 'tok' }), 'tok')
    assert.equal(peopleLabelOf('roles', { id: 2, name: 'teacher' }), 'teacher')
    assert.equal(peopleLabelOf('machines', { token: 't', model: 'HP 400', ubication: 'Piso 2' }), 'HP 400 (Piso 2)')
  })
})
