import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { appUrl } from '#lib/app_url'
import { isContractPath } from '#lib/call_contract'
import { setBaseHeaders } from '#lib/security_headers'

/**
 * Server middleware, first in the chain so even a refused request (bad JSON, unknown route) carries
 * the headers: every answer starts locked down, and what serves a document widens its own policy.
 */
export default class SecurityHeadersMiddleware {
  async handle({ request, response }: HttpContext, next: NextFn) {
    const path = request.url()
    setBaseHeaders(response, {
      https: appUrl().startsWith('https:'),
      api: isContractPath(path) || path === '/api' || path.startsWith('/api/'),
    })
    return next()
  }
}
