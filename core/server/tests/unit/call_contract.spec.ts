import { test } from '@japa/runner'
import { flag, headerValue, isContractPath, resolveCase } from '#lib/call_contract'

test.group('call contract rules', () => {
  test('case resolution', ({ assert }) => {
    assert.deepEqual(resolveCase('POST', 'put'), { ok: true, method: 'PUT', case: 'PUT' })
    assert.deepEqual(resolveCase('POST', ' DELETE '), { ok: true, method: 'DELETE', case: 'DELETE' })
    assert.deepEqual(resolveCase('PUT', 'PUT'), { ok: true, method: 'PUT', case: 'PUT' })
    assert.deepEqual(resolveCase('HEAD', 'GET'), { ok: true, method: 'GET', case: 'GET' })
    assert.deepEqual(resolveCase('DELETE', undefined), { ok: true, method: 'DELETE', case: null })
    assert.deepEqual(resolveCase('POST', ''), { ok: true, method: 'POST', case: null })
    assert.deepEqual(resolveCase('PUT', 'GET'), { ok: false, reason: 'case_mismatch', value: 'GET' })
    assert.deepEqual(resolveCase('POST', 'PATCH'), { ok: false, reason: 'invalid_case', value: 'PATCH' })
    assert.deepEqual(resolveCase('POST', ['GET']), { ok: false, reason: 'invalid_case', value: 'GET' })
  })

  test('flags and headers', ({ assert }) => {
    for (const yes of ['true', '1', 'TRUE', 'yes', 'on', true, 1]) assert.isTrue(flag(yes), String(yes))
    for (const no of ['false', '0', '', undefined, null, 'maybe', 2]) assert.isFalse(flag(no), String(no))
    assert.equal(headerValue(' abc '), 'abc')
    assert.isNull(headerValue('  '))
    assert.isNull(headerValue(undefined))
    assert.equal(headerValue(['x', 'y']), 'x')
  })

  test("only /data, /inside and the spec's public calls follow the contract", ({ assert }) => {
    assert.isTrue(isContractPath('/data/login'))
    assert.isTrue(isContractPath('/inside/forms/info_basicform'))
    assert.isTrue(isContractPath('/confirmretention/document/abc'))
    // The retention screen's own address is the web app's page (its PUT is the plugin's route).
    assert.isFalse(isContractPath('/confirmretention'))
    assert.isFalse(isContractPath('/database'))
    assert.isFalse(isContractPath('/api/plugins'))
    assert.isFalse(isContractPath('/forms/new'))
  })
})
