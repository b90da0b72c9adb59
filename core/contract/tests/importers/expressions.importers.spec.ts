import { test } from '@japa/runner'
import { analyzeScript } from '@tramita/sandbox'
import { atom } from '../../src/importers/js.js'
import { translateSurveyExpression } from '../../src/importers/surveyjs-emit.js'
import { translateFormioScript } from '../../src/importers/formio-script.js'
import { toIdentifier } from '../../src/importers/names.js'
import type { FieldRef, ValueKind } from '../../src/importers/values.js'

/** Questions of the tests: c holds several choices, lvl is a level, tel a phone, ok a yes / no. */
const KINDS: Record<string, ValueKind> = {
  a: 'scalar',
  b: 'scalar',
  c: 'multi',
  d: 'scalar',
  lvl: 'level',
  tel: 'phone',
  ok: 'bool',
}
const resolve = (name: string): FieldRef | undefined =>
  KINDS[name] ? { js: atom(name), kind: KINDS[name] } : undefined
const survey = (source: string) => {
  const result = translateSurveyExpression(source, resolve)
  return typeof result === 'string' ? { error: result } : result.code
}

test.group('SurveyJS expressions → JavaScript', () => {
  const cases: [string, string][] = [
    ["{a} = 'x' and {b} > 3", 'a == "x" && b > 3'],
    ["{c} contains 'y'", 'c.includes("y")'],
    ["{c} notcontains 'y'", '!c.includes("y")'],
    ['{d} notempty', 'String(d ?? "") != ""'],
    ['{d} empty', 'String(d ?? "") == ""'],
    ["!({a} = 'x')", 'a != "x"'],
    ["not {a} = 'x'", 'a != "x"'],
    ["{a} <> 'x' or {b} <= 2", 'a != "x" || b <= 2'],
    ['({a} = 1 or {b} = 2) and {d} >= 3', '(a == 1 || b == 2) && d >= 3'],
    ['{a} = 1 or {b} = 2 and {d} >= 3', 'a == 1 || b == 2 && d >= 3'],
    ["{a} equal 'x' AND {b} GREATER 2", 'a == "x" && b > 2'],
    ["{c} anyof ['x', 'y']", 'c.includes("x") || c.includes("y")'],
    ["{a} anyof ['x', 'y']", '["x", "y"].includes(a)'],
    ["{c} allof ['x', 'y']", 'c.includes("x") && c.includes("y")'],
    ["{a} noneof ['x']", '!["x"].includes(a)'],
    ["{c} = 'x'", 'c.includes("x")'],
    ['{lvl} empty', 'lvl < 0'],
    ['{lvl} notempty', '!(lvl < 0)'],
    ["{tel} = '300'", 'tel.value == "300"'],
    ['{tel} notempty', 'String(tel.value ?? "") != ""'],
    ['{ok} = true', 'ok == true'],
    ['{a} = "it\'s"', 'a == "it\'s"'],
    ['{a} + {b} * 2 ^ 2', 'a + b * 2 ** 2'],
    ['({a} + {b}) * 2', '(a + b) * 2'],
    ['-{a} ^ 2', '(-a) ** 2'],
    ['{a} - -1', 'a - -1'],
    ["iif({a} > 1, 'big', 'small')", 'a > 1 ? "big" : "small"'],
    ['sum({a}, {b}, 3) > 10', 'a + b + 3 > 10'],
    ['max({a}, {b})', 'Math.max(a, b)'],
    ['round({a} / 3)', 'Math.round(a / 3)'],
  ]
  for (const [source, expected] of cases) {
    test(source, ({ assert }) => {
      const code = survey(source)
      assert.equal(code, expected)
      assert.isUndefined(analyzeScript(code as string).error)
    })
  }

  test('what has no translation says why', ({ assert }) => {
    assert.deepEqual(survey('{zz} = 1'), { error: '{zz} is not a question of the survey' })
    assert.deepEqual(survey('today() > {a}'), { error: 'the function today() has no translation' })
    assert.deepEqual(survey('{a} ='), { error: 'the expression ends too early' })
    assert.deepEqual(survey("{a} = 'x"), { error: 'a string is not closed' })
    assert.deepEqual(survey("{a} = ['x']"), { error: 'comparing with a list has no translation' })
    assert.deepEqual(survey("{a} allof ['x']"), { error: '"allof" needs a question with several choices' })
    assert.deepEqual(survey('{a} # 1'), { error: 'unexpected "#"' })
    assert.deepEqual(survey('{a} = 1 {b}'), { error: 'unexpected text after the expression' })
  })
})

test.group('Form.io scripts → JavaScript', () => {
  const fields = new Set(['a', 'n', 'm', 'c', '1er nombre'])
  const find = (key: string) =>
    fields.has(key) ? { field_name: toIdentifier(key), type: 'text', data: {} } : undefined
  const formio = (source: string, target: 'show' | 'value' = 'show') => {
    const result = translateFormioScript(source, target, find)
    return typeof result === 'string' ? { error: result } : result.code
  }

  test('one assignment over data.x becomes an expression over field names', ({ assert }) => {
    assert.equal(formio("show = data.a == 'x';"), "a == 'x'")
    assert.equal(formio('show = !!data.c && data.n > 2'), '!!c && n > 2')
    assert.equal(formio("show = data['1er nombre'].length > 0;"), '_1er_nombre.length > 0')
    assert.equal(formio('value = data.n * 2 + Math.round(data.m) / 2;', 'value'), 'n * 2 + Math.round(m) / 2')
    assert.equal(formio('show = data.a.includes("data.n")'), 'a.includes("data.n")')
  })

  test('anything else is refused with the reason', ({ assert }) => {
    assert.deepEqual(formio('show = row.a == 1'), { error: 'it reads `row`, which only Form.io provides' })
    assert.deepEqual(formio('show = _.get(data, "a")'), { error: 'it reads `_`, which only Form.io provides' })
    assert.deepEqual(formio('if (data.a) { show = true }'), { error: 'it is not one `show = ...`' })
    assert.deepEqual(formio('show = data.a; show = false;'), { error: 'it has several statements' })
    assert.deepEqual(formio('show = data.a == `x`'), { error: 'template strings are not translated' })
    assert.deepEqual(formio('show = /x/.test(data.a)'), { error: 'regular expressions are not translated' })
    assert.deepEqual(formio('show = data.a = 1'), { error: 'it assigns or declares (`=`)' })
    assert.deepEqual(formio('show = data.zz'), { error: 'data.zz is not a field of the form' })
    assert.deepEqual(formio('show = data'), { error: 'reads `data` other than as data.key' })
    assert.deepEqual(formio('value = data.a', 'show'), { error: 'it is not one `show = ...`' })
  })
})

test.group('field names', () => {
  test('any key becomes an identifier scripts can read by bare name', ({ assert }) => {
    assert.equal(toIdentifier('nombre'), 'nombre')
    assert.equal(toIdentifier('Dirección de envío'), 'Direccion_de_envio')
    assert.equal(toIdentifier('2do apellido'), '_2do_apellido')
    assert.equal(toIdentifier('¿?'), 'field')
    assert.equal(toIdentifier('class'), 'class_')
    assert.equal(toIdentifier('now'), 'now_')
    assert.equal(toIdentifier('x'.repeat(200)).length, 120)
  })
})
