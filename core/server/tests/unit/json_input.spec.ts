import { test } from '@japa/runner'
import { MAX_JSON_DEPTH, parseJsonText, textTooDeep, tooDeepField, valueTooDeep } from '#lib/json_input'

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

test.group('JSON input bounds', () => {
  test('depth is counted over arrays and objects, never inside strings', ({ assert }) => {
    assert.isFalse(textTooDeep(nested(MAX_JSON_DEPTH)))
    assert.isTrue(textTooDeep(nested(MAX_JSON_DEPTH + 1)))
    assert.isFalse(textTooDeep(JSON.stringify({ a: '['.repeat(500), b: '"{\\"' + '{'.repeat(500) })))
    // An escaped backslash ends no string early: the brackets after it still count.
    assert.isTrue(textTooDeep(`{"s":"\\\\","d":${nested(MAX_JSON_DEPTH)}}`))
  })

  test('a parsed value is walked without recursion, 100,000 levels deep', ({ assert }) => {
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    assert.isTrue(valueTooDeep(deep))
    assert.isFalse(valueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH))))
    assert.equal(tooDeepField({ ok: [1, [2]], bad: deep }), 'bad')
    assert.isNull(tooDeepField({ ok: [1, [2]] }))
  })

  test('parseJsonText names what is wrong', ({ assert }) => {
    assert.deepEqual(parseJsonText('{"a":[1]}'), { ok: true, value: { a: [1] } })
    assert.deepEqual(parseJsonText('{"a":'), { ok: false, problem: 'bad_json' })
    assert.deepEqual(parseJsonText(nested(5000)), { ok: false, problem: 'too_deep' })
    assert.deepEqual(parseJsonText('"abc"', 4), { ok: false, problem: 'too_large' })
  })
})
