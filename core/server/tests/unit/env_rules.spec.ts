import { test } from '@japa/runner'
import { megabytesVariable, millisecondsVariable, urlVariable } from '#lib/env_rules'

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

  test('UPLOAD_MAX_MB is a size above 0, at most 10240', ({ assert }) => {
    assert.equal(megabytesVariable('UPLOAD_MAX_MB', '20'), 20)
    assert.equal(megabytesVariable('UPLOAD_MAX_MB', '0.5'), 0.5)
    assert.isUndefined(megabytesVariable('UPLOAD_MAX_MB', undefined))
    for (const bad of ['0', '-5', 'veinte', '20000', 'Infinity']) {
      assert.throws(() => megabytesVariable('UPLOAD_MAX_MB', bad), /UPLOAD_MAX_MB/, bad)
    }
  })

  test('DB_TIMEOUT_MS is a whole number of ms from 100 to 600000', ({ assert }) => {
    assert.equal(millisecondsVariable('DB_TIMEOUT_MS', '30000'), 30_000)
    assert.equal(millisecondsVariable('DB_TIMEOUT_MS', '100'), 100)
    assert.isUndefined(millisecondsVariable('DB_TIMEOUT_MS', ''))
    for (const bad of ['0', '99', '1.5', '30 s', '600001', '-1']) {
      assert.throws(() => millisecondsVariable('DB_TIMEOUT_MS', bad), /DB_TIMEOUT_MS.*between 100 and 600000/, bad)
    }
  })
})
