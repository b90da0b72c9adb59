import { existsSync, statSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { HttpContext } from '@adonisjs/core/http'
import { REPO_ROOT } from '#lib/paths'
import { message } from '#lib/messages'
import { setAppHeaders } from '#lib/security_headers'

/** A built web app: its dist folder and the path prefix it is served under ('' for the root). */
interface WebApp {
  dist: string
  prefix: string
}

const RUNTIME: WebApp = { dist: resolve(REPO_ROOT, 'runtime-web', 'dist'), prefix: '' }
/** The form designer (issue 6), built with Vite's base /designer/. Its data routes check the role. */
const DESIGNER: WebApp = { dist: resolve(REPO_ROOT, 'designer', 'dist'), prefix: '/designer' }

/** Which app a path belongs to: /designer and /designer/* are the designer's, the rest the runtime's. */
function appFor(path: string): WebApp {
  return path === DESIGNER.prefix || path.startsWith(DESIGNER.prefix + '/') ? DESIGNER : RUNTIME
}

/**
 * Serves the built runtime-web and designer: files under their dist/ as they are (hashed assets
 * cached for a year), and the app's index.html for every other path under it so the browser router
 * handles it. In development Vite serves them.
 */
export default class WebController {
  async serve(ctx: HttpContext) {
    const { request, response } = ctx
    const path = decodeURIComponent(request.url())
    const app = appFor(path)
    const inside = path.slice(app.prefix.length)
    // Workers take their policy from their own script's answer, so assets carry it as the pages do.
    setAppHeaders(response, app === RUNTIME && (inside === '/preview' || inside.startsWith('/preview/')))
    const file = resolve(app.dist, '.' + inside)
    if (file.startsWith(app.dist + sep) && existsSync(file) && statSync(file).isFile()) {
      if (inside.startsWith('/assets/')) response.header('cache-control', 'public, max-age=31536000, immutable')
      return response.download(file)
    }
    const index = resolve(app.dist, 'index.html')
    if (!existsSync(index)) {
      return response.status(503).send({ status: 'fail', message: message(ctx, 'error.web_not_built') })
    }
    response.header('cache-control', 'no-cache')
    return response.download(index)
  }
}
