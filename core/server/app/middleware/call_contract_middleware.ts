import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { CallFailure } from '#lib/envelope'
import { type CallInfo, flag, headerValue, isContractPath, resolveCase } from '#lib/call_contract'
import { message } from '#lib/messages'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The spec's call fields, present on /data/* and /inside/* requests. */
    call?: CallInfo
  }
}

/**
 * Server middleware (runs after the body parser and before routing): reads the `case` field and
 * rewrites the request method so the router matches the method the client named.
 */
export default class CallContractMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const { request } = ctx
    if (!isContractPath(request.url())) return next()

    const body = request.body() as Record<string, unknown>
    const query = request.qs() as Record<string, unknown>
    const pick = (key: string) => (body[key] !== undefined ? body[key] : query[key])

    const resolution = resolveCase(request.method(), pick('case'))
    if (!resolution.ok) {
      throw new CallFailure(message(ctx, `error.${resolution.reason}`, { value: resolution.value }), 400)
    }
    // The router reads the method from the Node request, so the tunnelled method is set there.
    request.request.method = resolution.method
    ctx.call = {
      method: resolution.method,
      case: resolution.case,
      token: headerValue(request.header('token')),
      user: headerValue(request.header('user')),
      firstLoad: flag(pick('first_load')),
      searchLoad: flag(pick('search_load')),
    }
    return next()
  }
}
