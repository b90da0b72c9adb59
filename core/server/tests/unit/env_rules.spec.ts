import { test } from '@japa/runner'
import { urlVariable } from '#lib/env_rules'

test.group('env rules', () => {
  test('URL variables accept local addresses and refuse other protocols with the variable named', ({ assert }) => {
    const redis = urlVariable(['redis:', 'rediss:'])
    assert.equal(redis('REDIS_URL', 'redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379')
    assert.isUndefined(redis('REDIS_URL', undefined))
    assert.isUndefined(redis('REDIS_URL', ''))
    assert.throws(() => redis('REDIS_URL', 'http://127.0.0.1'), /REDIS_URL.*redis:/)
    assert.throws(() => redis('REDIS_URL', 'not a url'), /REDIS_URL.*not a URL/)
    assert.equal(urlVariable(['http:', 'https:'])('APP_URL', 'http://localhost:3333'), 'http://localhost:3333')
  })
})
