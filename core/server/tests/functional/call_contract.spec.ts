import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import Institution from '#models/institution'

const refusal = (key: string, vars?: Record<string, unknown>, lang: 'es' | 'en' = 'es') => ({
  status: 'fail',
  message: translate(lang, key, vars),
})

test.group('call contract: case field, envelope and refusals', (group) => {
  group.each.setup(async () => {
    await Institution.query().delete()
    await Institution.create({ name: 'Colegio San José', logo: '/img/logo.png' })
  })

  test('GET answers the done envelope', async ({ client }) => {
    const response = await client.get('/data/config/infocompany')
    response.assertStatus(200)
    response.assertBody({
      status: 'done',
      data: {
        company: 'Colegio San José',
        url_img: '/img/logo.png',
        login_background: '',
        login_panel: '',
        principal_host: null,
      },
    })
  })

  test('GET with case and flags in the query string', async ({ client }) => {
    const response = await client
      .get('/data/config/infocompany')
      .qs({ case: 'get', first_load: 'true', search_load: '0' })
    response.assertStatus(200)
    response.assertBodyContains({ status: 'done' })
  })

  test('POST form-data tunnels the method named by case', async ({ client }) => {
    const response = await client.post('/data/config/infocompany').field('case', 'GET').field('first_load', 'true')
    response.assertStatus(200)
    response.assertBodyContains({ status: 'done', data: { company: 'Colegio San José' } })
  })

  test('POST url-encoded and JSON bodies tunnel too', async ({ client }) => {
    const form = await client.post('/data/config/infocompany').form({ case: 'GET' })
    form.assertBodyContains({ status: 'done' })
    const json = await client.post('/data/config/infocompany').json({ case: 'GET' })
    json.assertBodyContains({ status: 'done' })
  })

  test('an unknown case is refused with a reason', async ({ client, assert }) => {
    const response = await client.post('/data/config/infocompany').field('case', 'PATCHY')
    response.assertStatus(400)
    assert.deepEqual(response.body(), refusal('error.invalid_case', { value: 'PATCHY' }))
  })

  test('a case that contradicts a non-POST method is refused', async ({ client, assert }) => {
    const response = await client.put('/data/config/infocompany').form({ case: 'GET' })
    response.assertStatus(400)
    assert.deepEqual(response.body(), refusal('error.case_mismatch', { value: 'GET' }))
  })

  test('malformed JSON is a fail with a message, not a 500', async ({ client, assert }) => {
    const response = await client.post('/data/config/infocompany').unsafeJson('{"case": "GET", oops')
    response.assertStatus(400)
    assert.deepEqual(response.body(), refusal('error.malformed_body'))
  })

  test('malformed multipart is a fail with a message, not a 500', async ({ assert }) => {
    const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}/data/config/infocompany`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="case"\r\n\r\nGET\r\n--Wrong',
    })
    assert.equal(response.status, 400)
    assert.deepEqual(await response.json(), refusal('error.malformed_body'))
  })

  test('an unknown route answers 404 fail naming the route', async ({ client, assert }) => {
    const response = await client.post('/data/nothing/here').field('case', 'DELETE')
    response.assertStatus(404)
    assert.deepEqual(response.body(), refusal('error.not_found', { method: 'DELETE', path: '/data/nothing/here' }))
  })

  test('messages follow Accept-Language', async ({ client, assert }) => {
    const es = await client.post('/data/config/infocompany').field('case', 'NOPE')
    const en = await client
      .post('/data/config/infocompany')
      .field('case', 'NOPE')
      .header('accept-language', 'en-US,en;q=0.9')
    assert.deepEqual(es.body(), refusal('error.invalid_case', { value: 'NOPE' }))
    assert.deepEqual(en.body(), refusal('error.invalid_case', { value: 'NOPE' }, 'en'))
    assert.notEqual(es.body().message, en.body().message)
  })
})
