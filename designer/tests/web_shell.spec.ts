import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import {
  buildJsonRequest as buildRequest,
  readJsonAnswer as readAnswer,
  type JsonCallError,
} from '@tramita/web/json-call'

const texts = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >

test.group('designer shell: calls and texts', () => {
  test('a call carries the session headers and the language, and a JSON body', ({ assert }) => {
    const init = buildRequest('PUT', { name: 'X' }, { token: 't0k', user: '7' }, 'en')
    assert.deepEqual(init.headers, {
      accept: 'application/json',
      token: 't0k',
      user: '7',
      'accept-language': 'en',
      'content-type': 'application/json',
    })
    assert.equal(init.body, '{"name":"X"}')
    const bare = buildRequest('GET', undefined, { token: null, user: null })
    assert.deepEqual(bare.headers, { accept: 'application/json' })
    assert.isUndefined(bare.body)
  })

  test("a 'done' answer gives its data; anything else a refusal with the message and problems", ({ assert }) => {
    assert.deepEqual(readAnswer(200, { status: 'done', data: { forms: [] } }), { forms: [] })
    const refused = (status: number, body: unknown) => {
      try {
        readAnswer(status, body)
      } catch (error) {
        return error as JsonCallError
      }
      throw new Error('not refused')
    }
    const problems = [{ path: '/jsonconfig/form/pages', message: 'is required' }]
    const publish = refused(400, { status: 'fail', message: 'The definition has 1 problem(s)', problems })
    assert.deepEqual(publish.problems, problems)
    assert.isFalse(publish.unauthorized)
    assert.isTrue(refused(401, { status: 'fail', message: 'Unauthorized' }).unauthorized)
    assert.equal(refused(502, null).message, 'Error')
    assert.equal(refused(200, { status: 'fail', message: '  ' }).message, 'Error')
  })

  test('the designer speaks es, en and zh with the same keys', ({ assert }) => {
    const spanish = Object.keys(flat(texts('es'))).sort()
    for (const lang of ['en', 'zh']) assert.deepEqual(Object.keys(flat(texts(lang))).sort(), spanish, lang)
    for (const lang of ['es', 'en', 'zh']) {
      for (const [key, text] of Object.entries(flat(texts(lang)))) {
        assert.isString(text, `${lang}.${key}`)
        assert.isAbove(String(text).trim().length, 0, `${lang}.${key}`)
      }
    }
  })
})

/** Nested texts (one group per part of the designer) as dotted keys. */
function flat(texts: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value === 'object' && value !== null)
      Object.assign(out, flat(value as Record<string, unknown>, `${prefix}${key}.`))
    else out[prefix + key] = value
  }
  return out
}
