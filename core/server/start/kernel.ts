import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

/*
 * Server middleware run for every request, before routing. The body parser runs here (not as router
 * middleware) because the call contract reads the `case` field to choose the method to route by.
 */
server.use([() => import('@adonisjs/core/bodyparser_middleware'), () => import('#middleware/call_contract_middleware')])

router.use([])

/** Named middleware: `middleware.auth()` or `middleware.auth({ roles: ['superuser'] })` on a route. */
export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
})
