import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import {
  TABLE_MESSAGES,
  TABLE_MESSAGE_KEYS,
  TABLE_PAGINATION_DEFAULT,
  coerceTableCell,
  formulaFailureValue,
  pageSizeOptions,
  parseTableDate,
  tableButtonState,
  tableCellInput,
  type TableButtonInput,
  type TableButtonState,
  type TableCellInput,
  type TableCellValue,
} from '../../src/rules/index.js'

/** The expected local datetime-local text of an instant, computed from the machine's time zone. */
function localOf(instant: Date): string {
  const p = (n: number) => String(n).padStart(2, '0')
  const base = `${instant.getFullYear()}-${p(instant.getMonth() + 1)}-${p(instant.getDate())}T${p(instant.getHours())}:${p(instant.getMinutes())}`
  return instant.getSeconds() === 0 ? base : `${base}:${p(instant.getSeconds())}`
}

test.group('table cell editors', () => {
  const rows: [string, TableCellInput][] = [
    ['text', { kind: 'text' }],
    ['number', { kind: 'number', step: 1 }],
    ['boolean', { kind: 'checkbox' }],
    ['date', { kind: 'datetime-local' }],
    ['formule', { kind: 'none' }],
    ['buttons', { kind: 'none' }],
    ['something-else', { kind: 'text' }],
  ]
  for (const [type, expected] of rows) {
    test(`${type} → ${expected.kind}`, ({ assert }) => {
      assert.deepEqual(tableCellInput(type), expected)
    })
  }
})

test.group('coerceTableCell', () => {
  const rows: [type: string, raw: unknown, expected: TableCellValue][] = [
    ['number', '42', 42],
    ['number', '3,5', 3.5],
    ['number', 7, 7],
    ['number', 'abc', 'Número inválido'],
    ['number', '12abc', 'Número inválido'],
    ['number', Number.NaN, 'Número inválido'],
    ['number', '', ''],
    ['date', '2024-02-29', '2024-02-29T00:00'],
    ['date', '2024-02-29T13:05', '2024-02-29T13:05'],
    ['date', '2024-02-29 13:05:09', '2024-02-29T13:05:09'],
    ['date', '2024/12/31 23:59:00', '2024-12-31T23:59'],
    ['date', '2024-02-29T13:05:00.250', '2024-02-29T13:05'],
    ['date', '2023-02-29', 'Fecha inválida'],
    ['date', '2024-13-01', 'Fecha inválida'],
    ['date', '2024-01-01T24:00', 'Fecha inválida'],
    ['date', '01/02/2024', 'Fecha inválida'],
    ['date', 'mañana', 'Fecha inválida'],
    ['date', {}, 'Fecha inválida'],
    ['date', '', ''],
    ['boolean', true, true],
    ['boolean', 'TRUE', true],
    ['boolean', '1', true],
    ['boolean', 1, true],
    ['boolean', false, false],
    ['boolean', 'false', false],
    ['boolean', 'yes', false],
    ['boolean', null, false],
    ['text', 'hola', 'hola'],
    ['text', 5, '5'],
    ['text', null, ''],
    ['formule', 12, 12],
  ]
  for (const [type, raw, expected] of rows) {
    test(`${type} ${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(coerceTableCell(type, raw), expected)
    })
  }

  test('zoned text, Date objects and epoch milliseconds become local time', ({ assert }) => {
    const instant = new Date(Date.UTC(2024, 5, 15, 12, 30, 0))
    assert.equal(parseTableDate('2024-06-15T12:30Z'), localOf(instant))
    assert.equal(parseTableDate('2024-06-15T17:30+05:00'), localOf(instant))
    assert.equal(parseTableDate('2024-06-15T09:30-0300'), localOf(instant))
    assert.equal(parseTableDate(instant), localOf(instant))
    assert.equal(parseTableDate(instant.getTime()), localOf(instant))
    assert.isNull(parseTableDate(new Date(Number.NaN)))
  })

  test('messages match the Spanish i18n texts', ({ assert }) => {
    assert.deepEqual({ ...TABLE_MESSAGES }, { invalidDate: 'Fecha inválida', invalidNumber: 'Número inválido' })
    assert.equal(translate('es', TABLE_MESSAGE_KEYS.invalidDate), TABLE_MESSAGES.invalidDate)
    assert.equal(translate('es', TABLE_MESSAGE_KEYS.invalidNumber), TABLE_MESSAGES.invalidNumber)
  })
})

test.group('formula failures, buttons, pagination', () => {
  const failures: [string, string][] = [
    ['number', '0'],
    ['text', 'Error'],
    ['date', 'Error'],
    ['formule', 'Error'],
  ]
  for (const [type, expected] of failures) {
    test(`a failed formula in a ${type} column shows ${expected}`, ({ assert }) => {
      assert.strictEqual(formulaFailureValue(type), expected)
    })
  }

  const buttons: [TableButtonInput, TableButtonState][] = [
    [
      { enabled: true, conditionResult: true, text_error: 'No' },
      { usable: true, greyed: false, title: null },
    ],
    [{ enabled: true }, { usable: true, greyed: false, title: null }],
    [
      { enabled: true, conditionResult: false, text_error: 'Sin saldo' },
      { usable: false, greyed: true, title: 'Sin saldo' },
    ],
    [
      { enabled: false, conditionResult: true, text_error: 'Cerrado' },
      { usable: false, greyed: true, title: 'Cerrado' },
    ],
    [
      { enabled: false, conditionResult: false },
      { usable: false, greyed: true, title: '' },
    ],
    [
      { enabled: true, conditionResult: 'false' as unknown as boolean, text_error: 'x' },
      { usable: false, greyed: true, title: 'x' },
    ],
  ]
  for (const [input, expected] of buttons) {
    test(`button ${JSON.stringify(input)}`, ({ assert }) => {
      assert.deepEqual(tableButtonState(input), expected)
    })
  }

  const sizes: [string | undefined, number[]][] = [
    ['10,20,30', [10, 20, 30]],
    [' 5 , 15,abc,0,-5,15, 2.5,50', [5, 15, 50]],
    ['', [10, 20, 30]],
    ['x,y', [10, 20, 30]],
    [undefined, [10, 20, 30]],
    ['100', [100]],
  ]
  for (const [text, expected] of sizes) {
    test(`pageSizeOptions(${JSON.stringify(text)}) → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.deepEqual(pageSizeOptions(text), expected)
    })
  }

  test('pagination defaults', ({ assert }) => {
    assert.deepEqual({ ...TABLE_PAGINATION_DEFAULT }, { start: 10, size: 10, selectOptions: '10,20,30' })
  })
})
