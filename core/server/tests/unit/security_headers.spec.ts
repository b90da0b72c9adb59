import { test } from '@japa/runner'
import type { HttpContext } from '@adonisjs/core/http'
import { setBaseHeaders } from '#lib/security_headers'

/** A response that only records its headers. */
function recorder() {
  const headers: Record<string, string> = {}
  const response = { header: (name: string, value: string) => (headers[name.toLowerCase()] = value) }
  return { headers, response: response as unknown as HttpContext['response'] }
}

test.group('security headers', () => {
  test('HSTS only when the product is served over https', ({ assert }) => {
    const https = recorder()
    setBaseHeaders(https.response, { https: true, api: false })
    assert.equal(https.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains')
    const http = recorder()
    setBaseHeaders(http.response, { https: false, api: false })
    assert.notProperty(http.headers, 'strict-transport-security')
  })

  test('API answers are not stored; the rest leave caching to whoever serves them', ({ assert }) => {
    const api = recorder()
    setBaseHeaders(api.response, { https: false, api: true })
    assert.equal(api.headers['cache-control'], 'no-store')
    const other = recorder()
    setBaseHeaders(other.response, { https: false, api: false })
    assert.notProperty(other.headers, 'cache-control')
  })
})
