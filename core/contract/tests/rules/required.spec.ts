import { test } from '@japa/runner'
import { passesRequired, type RequiredOptions } from '../../src/rules/index.js'

type Row = [type: string, value: unknown, expected: boolean, options?: RequiredOptions]

const stored = (value: unknown, value_replace: unknown) => ({ type: 'x', value_replace, value_simple: '', value })
const upload = (path: string) => ({ ext: 'pdf', ip: '::1', path, real_name: 'a.pdf', status: 'good' })

const rows: Row[] = [
  // text, textarea, email: value and display text
  ['text', 'hola', true],
  ['text', '', false],
  ['text', '   ', false],
  ['text', null, false],
  ['text', stored('hola', 'hola'), true],
  ['text', stored('hola', ''), false],
  ['text', stored('', 'hola'), false],
  ['textarea', 'línea', true],
  ['email', 'a@b.co', true],
  ['email', '', false],
  // number and money
  ['number', 0, true],
  ['number', -3.5, true],
  ['number', '12', true],
  ['number', Number.NaN, false],
  ['number', '', false],
  ['number', 'abc', false],
  ['number', undefined, false],
  ['money', 0, true],
  ['money', '', false],
  ['number', stored(5, '5'), true],
  // celular
  ['celular', { code: 'CO', value: '3001234567', string: '+57 3001234567' }, true],
  ['celular', { code: 'CO', value: '3001234567', string: '' }, false],
  ['celular', { code: 'CO', value: '3001234567' }, false],
  ['celular', '+57 3001234567', false],
  // select, list, radios
  ['select', [1], true],
  ['select', [], false],
  ['select', 0, true],
  ['select', 'a', true],
  ['select', '', false],
  ['list', ['x', 'y'], true],
  ['radios', null, false],
  ['radios', Number.NaN, false],
  // date and time
  ['date', '2024-01-31', true],
  ['date', '', false],
  ['date', ['2024-01-01', '2024-01-31'], true],
  ['date', ['2024-01-01', ''], false],
  ['date', [], false],
  ['time', '08:30', true],
  ['time', null, false],
  // image and signature
  ['image', { ext: 'png', path: '/img/a.png', real_name: 'a.png', status: 'good' }, true],
  ['image', { ext: 'png', path: '', real_name: 'a.png', status: 'good' }, false],
  ['image', [upload('/img/a.png'), upload('/img/b.png')], true],
  ['image', [upload('/img/a.png'), upload('')], false],
  ['image', [], false],
  ['signature', { path: '/sig/1.png', date: '2024-01-01', ip: '::1', device: 'web' }, true],
  ['signature', { path: '', date: '', ip: '', device: '' }, false],
  ['signature', '', false],
  // level
  ['level', 0, true],
  ['level', 4, true],
  ['level', -1, false],
  ['level', null, false],
  // file
  ['file', [upload('/f/a.pdf')], true, { limit: -1 }],
  ['file', [], false, { limit: -1 }],
  ['file', [upload('/f/a.pdf')], true],
  ['file', [upload('/f/a.pdf'), upload('/f/b.pdf')], true, { limit: 2 }],
  ['file', [upload('/f/a.pdf')], false, { limit: 2 }],
  ['file', [upload('/f/a.pdf'), upload('/f/b.pdf'), upload('/f/c.pdf')], false, { limit: 2 }],
  ['file', [upload('/f/a.pdf'), upload('')], false, { limit: 2 }],
  ['file', [upload('/f/a.pdf')], true, { limit: 0 }],
  ['file', null, false],
  // the product's own type
  ['tramita', 'x', true],
  ['tramita', '', false],
  ['tramita', { id: 1 }, true],
  ['tramita', {}, false],
  // checkbox, switch, radio
  ['checkbox', true, true],
  ['checkbox', false, false],
  ['checkbox', 'true', false],
  ['switch', true, true],
  ['switch', stored(true, 'YES'), true],
  ['switch', stored(false, 'NO'), false],
  ['radio', false, true],
  ['radio', null, true],
  // selectors
  ['users', [3], true],
  ['users', [], false],
  ['areas', 'ventas', true],
  ['roles', null, false],
  ['machines', { token: 'm1' }, true],
  // table
  ['table', [{ id: 1 }], true],
  ['table', [], false],
  ['table', { id: 1 }, false],
  // unknown types
  ['var_text', 'x', true],
  ['var_text', ' ', false],
  ['var_json', false, true],
  ['var_json', undefined, false],
]

test.group('passesRequired (spec 000 §5 pass conditions)', () => {
  for (const [type, value, expected, options] of rows) {
    const label = `${type} ${JSON.stringify(value) ?? String(value)}${options ? ` ${JSON.stringify(options)}` : ''}`
    test(`${label} → ${expected}`, ({ assert }) => {
      assert.strictEqual(passesRequired(type, value, options), expected)
    })
  }
})
