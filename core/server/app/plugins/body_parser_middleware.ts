import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import env from '#start/env'
import { CallFailure } from '#lib/envelope'
import { message } from '#lib/messages'
import { platform } from '#services/platform'

/** A plugin route's upload limit when it names none: the core's (UPLOAD_MAX_MB) plus room for the fields. */
export function defaultPluginMaxBytes(): number {
  return Math.ceil((env.get('UPLOAD_MAX_MB', 20) + 1) * 1024 * 1024)
}

const TUNNELLED = ['GET', 'PUT', 'DELETE', 'POST'] as const

/**
 * The body parser (server middleware, before routing), with each plugin route's own multipart limit
 * (`maxBytes`) instead of the global one: a route may allow a 1 GB upload, another 1 MB. Files still
 * stream to temporary files, never to memory; a declared Content-Length over the limit is refused
 * before a byte is read.
 */
export default class PluginBodyParserMiddleware {
  private readonly parsers = new Map<number, BodyParserMiddleware>()

  private async parserFor(limit: number | null): Promise<BodyParserMiddleware> {
    if (limit === null) return app.container.make(BodyParserMiddleware)
    let parser = this.parsers.get(limit)
    if (!parser) {
      const config = app.config.get<any>('bodyparser')
      parser = new BodyParserMiddleware({ ...config, multipart: { ...config.multipart, limit } }, app.experimentalFlags)
      this.parsers.set(limit, parser)
    }
    return parser
  }

  /** The limit of the plugin route this request goes to (the call contract may tunnel it through POST). */
  private limitOf(ctx: HttpContext): number | null {
    if (!ctx.request.is(['multipart/form-data'])) return null
    let table
    try {
      table = platform().pluginServices?.routes
    } catch {
      return null
    }
    if (!table || table.all().length === 0) return null
    const url = ctx.request.url()
    const method = ctx.request.method()
    const methods = method === 'POST' ? TUNNELLED : [method]
    for (const candidate of methods) {
      const matched = router.match(url, candidate, false)
      const declared = matched && table.find(candidate, matched.route.pattern)
      if (declared) return declared.route.maxBytes ?? defaultPluginMaxBytes()
    }
    return null
  }

  async handle(ctx: HttpContext, next: NextFn) {
    const limit = this.limitOf(ctx)
    if (limit !== null && Number(ctx.request.header('content-length') ?? 0) > limit) {
      throw new CallFailure(message(ctx, 'error.too_large'), 413)
    }
    return (await this.parserFor(limit)).handle(ctx, next)
  }
}
