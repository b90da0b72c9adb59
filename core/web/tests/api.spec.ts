import { test } from '@japa/runner'
import { GENERIC_ERROR, buildRequest, fieldText, interpretBody } from '../src/api.js'

test.group('buildRequest', () => {
  test('GET sends case and the fields in the query string, with the flags', ({ assert }) => {
    const { url, init } = buildRequest('GET', '/data/areas', { search: 'a b', page: 2 })
    assert.equal(init.method, 'GET')
    assert.isUndefined(init.body)
    const [path, query] = url.split('?')
    assert.equal(path, '/data/areas')
    const params = new URLSearchParams(query)
    assert.equal(params.get('case'), 'GET')
    assert.equal(params.get('search'), 'a b')
    assert.equal(params.get('page'), '2')
    assert.equal(params.get('first_load'), 'false')
    assert.equal(params.get('search_load'), 'false')
  })

  test('GET keeps a query already in the path', ({ assert }) => {
    const { url } = buildRequest('GET', '/confirmretention/document/77?user=5', {}, {}, { firstLoad: true })
    assert.isTrue(url.startsWith('/confirmretention/document/77?user=5&'))
    const params = new URLSearchParams(url.split('?')[1])
    assert.equal(params.get('user'), '5')
    assert.equal(params.get('case'), 'GET')
    assert.equal(params.get('first_load'), 'true')
  })

  test('POST, PUT and DELETE send form-data with case, fields and flags', ({ assert }) => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const { url, init } = buildRequest(method, '/data/login', { user: 'ana', tries: 3, two_factor: true })
      assert.equal(url, '/data/login')
      assert.equal(init.method, method)
      assert.instanceOf(init.body, FormData)
      const body = init.body!
      assert.equal(body.get('case'), method)
      assert.equal(body.get('user'), 'ana')
      assert.equal(body.get('tries'), '3')
      assert.equal(body.get('two_factor'), 'true')
      assert.equal(body.get('first_load'), 'false')
      assert.equal(body.get('search_load'), 'false')
    }
  })

  test('objects travel as JSON, null and undefined as empty, files as files', ({ assert }) => {
    const file = new File(['%PDF'], 'scan.pdf', { type: 'application/pdf' })
    const { init } = buildRequest('POST', '/data/form/upload/files', {
      data: { idDB: 1, idsColumns: [2, 3] },
      note: null,
      extra: undefined,
      file,
    })
    const body = init.body!
    assert.equal(body.get('data'), '{"idDB":1,"idsColumns":[2,3]}')
    assert.equal(body.get('note'), '')
    assert.equal(body.get('extra'), '')
    const sent = body.get('file')
    assert.instanceOf(sent, File)
    assert.equal((sent as File).name, 'scan.pdf')
  })

  test('a field cannot override case', ({ assert }) => {
    const { init } = buildRequest('PUT', '/x', { case: 'DELETE' })
    assert.deepEqual(init.body!.getAll('case'), ['PUT'])
    const { url } = buildRequest('GET', '/x', { case: 'POST' })
    assert.deepEqual(new URLSearchParams(url.split('?')[1]).getAll('case'), ['GET'])
  })

  test('the token and user headers are sent only when the session has them', ({ assert }) => {
    const anonymous = buildRequest('POST', '/x')
    assert.notProperty(anonymous.init.headers, 'token')
    assert.notProperty(anonymous.init.headers, 'user')
    const signed = buildRequest('POST', '/x', {}, { token: 'abc', user: '7' }, {}, 'zh')
    assert.equal(signed.init.headers.token, 'abc')
    assert.equal(signed.init.headers.user, '7')
    assert.equal(signed.init.headers['accept-language'], 'zh')
    assert.equal(signed.init.headers.accept, 'application/json')
  })

  test('fieldText', ({ assert }) => {
    assert.equal(fieldText(0), '0')
    assert.equal(fieldText(false), 'false')
    assert.equal(fieldText([1, 'a']), '[1,"a"]')
    assert.equal(fieldText(undefined), '')
  })
})

test.group('interpretBody', () => {
  test("status 'done' resolves the whole body", ({ assert }) => {
    const outcome = interpretBody({ status: 'done', data: { id: 1 }, token_new: 't' })
    assert.isTrue(outcome.ok)
    if (outcome.ok) assert.deepEqual(outcome.body, { status: 'done', data: { id: 1 }, token_new: 't' })
  })

  test("any other status fails with the server's message, or 'Error'", ({ assert }) => {
    assert.deepEqual(interpretBody({ status: 'fail', message: 'Invalid password' }), {
      ok: false,
      message: 'Invalid password',
      unauthorized: false,
    })
    assert.deepEqual(interpretBody({ status: 'fail' }), { ok: false, message: GENERIC_ERROR, unauthorized: false })
    assert.deepEqual(interpretBody({ status: 'pending', message: '  ' }), {
      ok: false,
      message: 'Error',
      unauthorized: false,
    })
    assert.deepEqual(interpretBody(null), { ok: false, message: 'Error', unauthorized: false })
    assert.deepEqual(interpretBody('<html>'), { ok: false, message: 'Error', unauthorized: false })
    assert.deepEqual(interpretBody({ message: 'no status' }), { ok: false, message: 'no status', unauthorized: false })
  })

  test("'Unauthorized' is flagged so the session can be ended", ({ assert }) => {
    assert.deepEqual(interpretBody({ status: 'fail', message: 'Unauthorized' }), {
      ok: false,
      message: 'Unauthorized',
      unauthorized: true,
    })
  })
})
