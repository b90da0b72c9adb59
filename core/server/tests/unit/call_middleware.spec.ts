import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import CallContractMiddleware from '#middleware/call_contract_middleware'
import HttpExceptionHandler from '#exceptions/handler'

async function contextFor(method: string, url: string, headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket())
  req.method = method
  req.url = url
  req.headers = headers
  return testUtils.createHttpContext({ req, res: new ServerResponse(req) })
}

test.group('call contract middleware', () => {
  test('reads case, headers and flags, and rewrites the method', async ({ assert }) => {
    const ctx = await contextFor('POST', '/data/areas', { token: 'tok-123', user: '7' })
    ctx.request.updateBody({ case: 'GET', first_load: 'true', search_load: 'false' })
    let called = false
    await new CallContractMiddleware().handle(ctx, async () => {
      called = true
    })
    assert.isTrue(called)
    assert.equal(ctx.request.method(), 'GET')
    assert.deepEqual(ctx.call, {
      method: 'GET',
      case: 'GET',
      token: 'tok-123',
      user: '7',
      firstLoad: true,
      searchLoad: false,
    })
  })

  test('leaves other paths alone', async ({ assert }) => {
    const ctx = await contextFor('POST', '/api/plugins')
    ctx.request.updateBody({ case: 'GET' })
    await new CallContractMiddleware().handle(ctx, async () => {})
    assert.equal(ctx.request.method(), 'POST')
    assert.isUndefined(ctx.call)
  })

  test('an invalid case throws a 400 failure before routing', async ({ assert }) => {
    const ctx = await contextFor('POST', '/data/areas')
    ctx.request.updateBody({ case: 'TRACE' })
    let called = false
    await assert.rejects(() =>
      new CallContractMiddleware().handle(ctx, async () => {
        called = true
      })
    )
    assert.isFalse(called)
  })
})

test.group('exception handler', () => {
  test('a server error answers a generic fail without the stack or the internal message', async ({ assert }) => {
    const ctx = await contextFor('POST', '/data/areas')
    await new HttpExceptionHandler().handle(new Error('connection string postgres://secret@db'), ctx)
    assert.equal(ctx.response.getStatus(), 500)
    const body = ctx.response.getBody() as Record<string, unknown>
    assert.equal(body.status, 'fail')
    assert.notInclude(String(body.message), 'secret')
    assert.notProperty(body, 'stack')
  })
})
