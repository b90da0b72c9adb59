import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

/*
 * Server middleware run for every request, before routing. The body parser runs here (not as router
 * middleware) because the call contract reads the `case` field to choose the method to route by; the
 * depth check refuses a too deeply nested JSON body before anything walks it. The security headers
 * come first so that every answer, a refused one too, carries them.
 */
server.use([
  () => import('#middleware/security_headers_middleware'),
  // The body parser, with each plugin route's own upload limit and a temporary folder per request for
  // the files (app/plugins/body_parser_middleware.ts).
  () => import('#plugins/body_parser_middleware'),
  () => import('#middleware/json_depth_middleware'),
  () => import('#middleware/call_contract_middleware'),
])

router.use([])

/** Named middleware: `middleware.auth()` or `middleware.auth({ roles: ['superuser'] })` on a route. */
export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
})
