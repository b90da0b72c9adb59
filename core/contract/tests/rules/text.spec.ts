import { test } from '@japa/runner'
import fc from 'fast-check'
import {
  applyMask,
  autocompleteSuggestions,
  checkText,
  compilePattern,
  isEmail,
  isPhone,
  maskLength,
  type TextCheck,
  type TextRuleOptions,
} from '../../src/rules/index.js'

test.group('applyMask (vue-the-mask tokens)', () => {
  const rows: [raw: string, mask: string, expected: string][] = [
    ['3001234567', '(###) ###-####', '(300) 123-4567'],
    ['(300) 123-4567', '(###) ###-####', '(300) 123-4567'],
    ['300-123', '(###) ###-####', '(300) 123'],
    ['1', '(###) ###', '(1'],
    ['12', '(##)', '(12)'],
    ['', '(###)', ''],
    ['abc123', '###', '123'],
    ['12345', '##', '12'],
    ['ab12', 'AA-##', 'AB-12'],
    ['CD', 'aa', 'cd'],
    ['a1b2', 'XXXX', 'a1b2'],
    ['a-1', 'XX', 'a1'],
    ['a1b', 'SS', 'ab'],
    ['ñu', 'AA', 'ÑU'],
    ['ß', 'A', 'ß'],
    ['5', '!#-#', '#-5'],
    ['1a', '#!A', '1A'],
    ['123', '##!', '12'],
    ['56', '#1#', '516'],
    ['516', '#1#', '516'],
    ['x y', '', 'x y'],
  ]
  for (const [raw, mask, expected] of rows) {
    test(`${JSON.stringify(raw)} with ${JSON.stringify(mask)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(applyMask(raw, mask), expected)
    })
  }

  test('maskLength counts an escape and its character once', ({ assert }) => {
    assert.equal(maskLength('(###) ###-####'), 14)
    assert.equal(maskLength('!#-#'), 3)
    assert.equal(maskLength('##!'), 2)
  })

  const maskArb = fc
    .array(fc.constantFrom('#', 'X', 'S', 'A', 'a', '!', '-', '(', ')', ' ', '/', '.', '1', 'b', 'Z'), {
      minLength: 1,
      maxLength: 20,
    })
    .map((chars) => chars.join(''))
  const rawArb = fc.string({ unit: fc.constantFrom('1', '2', '9', 'a', 'Z', 'ñ', '-', '(', ' ', '.', '!', '#', 'ß') })

  test('the output never has more characters than the mask has positions', () => {
    fc.assert(
      fc.property(rawArb, maskArb, (raw, mask) => {
        const out = [...applyMask(raw, mask)].length
        return out <= maskLength(mask) && maskLength(mask) <= [...mask].length
      })
    )
  })

  test('masking a masked value changes nothing', () => {
    fc.assert(
      fc.property(rawArb, maskArb, (raw, mask) => {
        const once = applyMask(raw, mask)
        return applyMask(once, mask) === once
      })
    )
  })
})

test.group('checkText (limit, counter, mask, pattern)', () => {
  const rows: [value: string, options: TextRuleOptions, expected: TextCheck][] = [
    ['hello', {}, { valid: true, emitted: 'hello', limit: null, counter: null, message: null }],
    ['hello', { limit: 3 }, { valid: true, emitted: 'hel', limit: 3, counter: '3/3', message: null }],
    ['hi', { limit: 10 }, { valid: true, emitted: 'hi', limit: 10, counter: '2/10', message: null }],
    ['hello', { limit: -1 }, { valid: true, emitted: 'hello', limit: null, counter: null, message: null }],
    ['hello', { limit: -7 }, { valid: true, emitted: 'hello', limit: null, counter: null, message: null }],
    ['hello', { limit: 0 }, { valid: true, emitted: 'hello', limit: null, counter: null, message: null }],
    ['😀😀😀', { limit: 2 }, { valid: true, emitted: '😀😀', limit: 2, counter: '2/2', message: null }],
    [
      '3001234567',
      { limit: 3, mask: '(###) ###-####' },
      { valid: true, emitted: '(300) 123-4567', limit: null, counter: null, message: null },
    ],
    ['abc', { pattern: '[0-9]+' }, { valid: false, emitted: '', limit: null, counter: null, message: 'info_invalida' }],
    ['123', { pattern: '[0-9]+' }, { valid: true, emitted: '123', limit: null, counter: null, message: null }],
    [
      '123abc',
      { pattern: '[0-9]+' },
      { valid: false, emitted: '', limit: null, counter: null, message: 'info_invalida' },
    ],
    ['ab', { pattern: 'a|b' }, { valid: false, emitted: '', limit: null, counter: null, message: 'info_invalida' }],
    ['b', { pattern: 'a|b' }, { valid: true, emitted: 'b', limit: null, counter: null, message: null }],
    ['', { pattern: '[0-9]+' }, { valid: true, emitted: '', limit: null, counter: null, message: null }],
    ['', { limit: 5, pattern: 'x' }, { valid: true, emitted: '', limit: 5, counter: '0/5', message: null }],
    ['abc', { pattern: '[unclosed' }, { valid: true, emitted: 'abc', limit: null, counter: null, message: null }],
    ['abcdef', { limit: 3, pattern: 'abc' }, { valid: true, emitted: 'abc', limit: 3, counter: '3/3', message: null }],
    [
      'abcdef',
      { limit: 4, pattern: 'abc' },
      { valid: false, emitted: '', limit: 4, counter: '4/4', message: 'info_invalida' },
    ],
    [
      '123',
      { mask: '##-##', pattern: '\\d{2}-\\d{2}' },
      { valid: false, emitted: '', limit: null, counter: null, message: 'info_invalida' },
    ],
    [
      '1234',
      { mask: '##-##', pattern: '\\d{2}-\\d{2}' },
      { valid: true, emitted: '12-34', limit: null, counter: null, message: null },
    ],
    // ref.min_length: a shorter non-empty value is invalid; the pattern is checked first.
    ['ab', { minLength: 3 }, { valid: false, emitted: '', limit: null, counter: null, message: 'min_length' }],
    ['abc', { minLength: 3 }, { valid: true, emitted: 'abc', limit: null, counter: null, message: null }],
    ['', { minLength: 3 }, { valid: true, emitted: '', limit: null, counter: null, message: null }],
    ['😀😀', { minLength: 3 }, { valid: false, emitted: '', limit: null, counter: null, message: 'min_length' }],
    ['a', { minLength: 0 }, { valid: true, emitted: 'a', limit: null, counter: null, message: null }],
    ['a', { minLength: -1 }, { valid: true, emitted: 'a', limit: null, counter: null, message: null }],
    [
      'a1',
      { minLength: 3, pattern: '[a-z]+' },
      { valid: false, emitted: '', limit: null, counter: null, message: 'info_invalida' },
    ],
    ['ab', { minLength: 3, limit: 5 }, { valid: false, emitted: '', limit: 5, counter: '2/5', message: 'min_length' }],
    [
      '12',
      { minLength: 5, mask: '##-##' },
      { valid: false, emitted: '', limit: null, counter: null, message: 'min_length' },
    ],
    [
      '1234',
      { minLength: 5, mask: '##-##' },
      { valid: true, emitted: '12-34', limit: null, counter: null, message: null },
    ],
  ]
  for (const [value, options, expected] of rows) {
    test(`${JSON.stringify(value)} with ${JSON.stringify(options)}`, ({ assert }) => {
      assert.deepEqual(checkText(value, options), expected)
    })
  }

  test('an unparseable pattern compiles to nothing; a valid one matches whole values only', ({ assert }) => {
    assert.isNull(compilePattern('(a'))
    assert.isNull(compilePattern(''))
    assert.isTrue(compilePattern('a+')!.test('aaa'))
    assert.isFalse(compilePattern('a+')!.test('baaa'))
  })

  const patterns = ['[0-9]+', '[a-z]{2,4}', 'a|b', '\\d{3}-\\d{2}', '[A-Z][a-z]*', '.*x']
  test('what is emitted is empty or matches the pattern as a whole, within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('1', '2', 'a', 'b', 'x', 'Q', '-', ' ') }),
        fc.constantFrom(...patterns),
        fc.integer({ min: -3, max: 8 }),
        (value, pattern, limit) => {
          const result = checkText(value, { pattern, limit })
          const whole = new RegExp(`^(?:${pattern})$`)
          const fits = limit <= 0 || [...result.emitted].length <= limit
          return (
            fits && (result.emitted === '' || whole.test(result.emitted)) && result.valid === (result.message === null)
          )
        }
      )
    )
  })
})

test.group('autocompleteSuggestions', () => {
  const list = ['Bogotá', 'Boyacá', 'Cali', 'bo', 'Medellín']
  const rows: [typed: string, expected: string[]][] = [
    ['bo', ['Bogotá', 'Boyacá']],
    ['BO', ['Bogotá', 'Boyacá']],
    ['cali', []],
    ['al', ['Cali']],
    ['', []],
    ['medellin', []],
    ['LLÍ', ['Medellín']],
    ['zz', []],
  ]
  for (const [typed, expected] of rows) {
    test(`${JSON.stringify(typed)} suggests ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.deepEqual(autocompleteSuggestions(typed, list), expected)
    })
  }
})

test.group('isEmail and isPhone', () => {
  const emails: [string, boolean][] = [
    ['user@example.com', true],
    ['a.b-c+d@sub.example.co', true],
    ['josé@dominio.com.co', true],
    ['user@example', false],
    ['user example@x.com', false],
    ['user@exa mple.com', false],
    [' user@x.com', false],
    ['@x.com', false],
    ['user@', false],
    ['user@@x.com', false],
    ['user@x..com', false],
    ['.user@x.com', false],
    ['user@-x.com', false],
    ['user@x.c', false],
    ['', false],
  ]
  for (const [text, expected] of emails) {
    test(`isEmail(${JSON.stringify(text)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(isEmail(text), expected)
    })
  }

  const phones: [string, boolean][] = [
    ['3001234567', false],
    ['30012345678', true],
    ['+57 300 123 4567', true],
    ['300 123 4567', false],
    ['300 123 45678', true],
    ['           ', false],
    ['', false],
  ]
  for (const [text, expected] of phones) {
    test(`isPhone(${JSON.stringify(text)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(isPhone(text), expected)
    })
  }
})
