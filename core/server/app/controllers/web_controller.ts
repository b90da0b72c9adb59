import { existsSync, statSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { HttpContext } from '@adonisjs/core/http'
import { REPO_ROOT } from '#lib/paths'
import { message } from '#lib/messages'

const DIST = resolve(REPO_ROOT, 'runtime-web', 'dist')

/**
 * Serves the built runtime-web: files under dist/ as they are (hashed assets cached for a year), and
 * index.html for every other path so the browser router handles it. In development Vite serves it.
 */
export default class WebController {
  async serve(ctx: HttpContext) {
    const { request, response } = ctx
    const path = decodeURIComponent(request.url())
    const file = resolve(DIST, '.' + path)
    if (file.startsWith(DIST + sep) && existsSync(file) && statSync(file).isFile()) {
      if (path.startsWith('/assets/')) response.header('cache-control', 'public, max-age=31536000, immutable')
      return response.download(file)
    }
    const index = resolve(DIST, 'index.html')
    if (!existsSync(index)) {
      return response.status(503).send({ status: 'fail', message: message(ctx, 'error.web_not_built') })
    }
    response.header('cache-control', 'no-cache')
    return response.download(index)
  }
}
