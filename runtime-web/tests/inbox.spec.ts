import { test } from '@japa/runner'
import { formatDate, listingFields, localMidnight, NO_FILTERS, pageCount, stateChoices } from '../src/lib/inbox.js'

test.group('inbox helpers', () => {
  test('a local day range becomes [its first midnight, the midnight after its last day)', ({ assert }) => {
    const fields = listingFields({ ...NO_FILTERS, from: '2026-03-01', to: '2026-03-31' }, 2, 20)
    assert.equal(fields.from, new Date(2026, 2, 1).toISOString())
    assert.equal(fields.to, new Date(2026, 3, 1).toISOString())
    assert.include(fields, { page: '2', per_page: '20' })
    assert.notProperty(fields, 'search')
    assert.isNull(localMidnight('ayer'))
    assert.equal(localMidnight('2026-12-31', 1), new Date(2027, 0, 1).toISOString())
  })

  test('empty filters are left out; search is trimmed', ({ assert }) => {
    assert.deepEqual(listingFields({ ...NO_FILTERS, search: '  K7M2 ', process: 'abc', state: 'revision' }, 1, 10), {
      page: '1',
      per_page: '10',
      search: 'K7M2',
      process: 'abc',
      state: 'revision',
    })
  })

  test('state choices: the chosen process’s, or every process’s once per id', ({ assert }) => {
    const options = {
      processes: [
        {
          key: 'a',
          name: 'A',
          states: [
            { id: 'init', label: 'Iniciado', color: '#7f82ff' },
            { id: 'x', label: 'X', color: '' },
          ],
        },
        {
          key: 'b',
          name: 'B',
          states: [
            { id: 'init', label: 'Inicio', color: '' },
            { id: 'y', label: 'Y', color: '' },
          ],
        },
      ],
    }
    assert.deepEqual(
      stateChoices(options, '').map((s) => s.id),
      ['init', 'x', 'y']
    )
    assert.deepEqual(
      stateChoices(options, 'b').map((s) => s.label),
      ['Inicio', 'Y']
    )
    assert.deepEqual(stateChoices(null, ''), [])
  })

  test('pages and dates', ({ assert }) => {
    assert.equal(pageCount(0, 10), 1)
    assert.equal(pageCount(21, 10), 3)
    assert.equal(formatDate(new Date(2026, 10, 5, 9, 7).toISOString()), '2026/11/05 09:07')
    assert.equal(formatDate(null), '')
    assert.equal(formatDate('nope'), '')
  })
})
