import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import {
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  PASSWORD_RULE_MESSAGES,
  checkPassword,
  hasAscendingDigits,
  hasRepeatedChar,
  passwordRuleMessage,
  type PasswordRule,
} from '../../src/rules/index.js'

test.group('checkPassword', () => {
  const rows: [password: string, confirmation: string | null, failed: PasswordRule[]][] = [
    ['Abcdef1!', null, []],
    ['Abc1234!', null, ['ascending_digits']],
    ['Abc4567!', null, ['ascending_digits']],
    ['Xy789z!q', null, ['ascending_digits']],
    ['Abc8901!', null, []],
    ['Abc321!x', null, []],
    ['Abc1357!', null, []],
    ['Aaa...1x', null, ['repeated_char']],
    ['Aaaa1!xy', null, ['repeated_char']],
    ['Ab!111cd', null, ['repeated_char']],
    ['AaA1!xyz', null, []],
    ['abcdef1!', null, ['uppercase']],
    ['ñandú1!x', null, ['uppercase']],
    ['Ñandú1!x', null, []],
    ['Abcdefg!', null, ['digit']],
    ['Abcdefg1', null, ['symbol']],
    ['Abcde\u0301f1', null, ['symbol']],
    ['Abcdef1 ', null, []],
    ['Ab1!', null, ['min_length']],
    ['Ab1!xyz', null, ['min_length']],
    ['Abcdef1!', 'Abcdef1?', ['confirmation']],
    ['Abcdef1!', '', ['confirmation']],
    ['', '', ['min_length', 'uppercase', 'digit', 'symbol', 'confirmation']],
    ['aaa1234', 'x', ['min_length', 'uppercase', 'symbol', 'ascending_digits', 'repeated_char', 'confirmation']],
  ]
  for (const [password, confirmation, failed] of rows) {
    const confirm = confirmation ?? password
    test(`${JSON.stringify(password)} / ${JSON.stringify(confirm)} fails ${JSON.stringify(failed)}`, ({ assert }) => {
      assert.deepEqual(checkPassword(password, confirm), { ok: failed.length === 0, failed })
    })
  }

  test('rules are reported in the checklist order, minimum length 8', ({ assert }) => {
    assert.deepEqual(
      [...PASSWORD_RULES],
      ['min_length', 'uppercase', 'digit', 'symbol', 'ascending_digits', 'repeated_char', 'confirmation']
    )
    assert.equal(PASSWORD_MIN_LENGTH, 8)
  })

  test('sequence and repeat helpers', ({ assert }) => {
    assert.isTrue(hasAscendingDigits('x012'))
    assert.isFalse(hasAscendingDigits('1 2 3'))
    assert.isFalse(hasAscendingDigits('12'))
    assert.isTrue(hasRepeatedChar('😀😀😀'))
    assert.isFalse(hasRepeatedChar('😀😀'))
  })

  test('every rule has a Spanish checklist text; a failed confirmation says password_no_coincide', ({ assert }) => {
    for (const rule of PASSWORD_RULES) {
      for (const ok of [true, false]) {
        const key = passwordRuleMessage(rule, ok)
        assert.notEqual(translate('es', key), key, `missing i18n key ${key}`)
      }
    }
    // A met rule reads as a statement that holds; only the unmet confirmation says they do not match.
    assert.equal(translate('es', passwordRuleMessage('confirmation', true)), 'Las contraseñas coinciden')
    assert.equal(passwordRuleMessage('confirmation', false), 'password_no_coincide')
    assert.equal(passwordRuleMessage('digit', false), PASSWORD_RULE_MESSAGES.digit)
  })
})
