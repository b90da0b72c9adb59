import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { CallFailure } from '#lib/envelope'
import { headerValue } from '#lib/call_contract'
import { message } from '#lib/messages'
import { principalFor, type Principal } from '#services/auth/principal'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The signed-in caller, set by the `auth` middleware. */
    principal?: Principal
  }
}

/**
 * Named middleware `auth`: the `token` header must name a live session or API token. Otherwise the
 * answer is 401 `Unauthorized`, the message the spec's client reacts to by destroying its session
 * and reloading (000 §8). With `roles`, the caller must also hold one of them (403 otherwise).
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn, options: { roles?: string[] } = {}) {
    const token = ctx.call?.token ?? headerValue(ctx.request.header('token'))
    const principal = await principalFor(token)
    if (!principal) throw new CallFailure(message(ctx, 'error.unauthorized'), 401, 'E_CALL_FAILED')
    if (options.roles && !options.roles.some((role) => principal.roles.includes(role))) {
      throw new CallFailure(message(ctx, 'auth.forbidden'), 403, 'E_CALL_FAILED')
    }
    ctx.principal = principal
    return next()
  }
}
