import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
 * before a byte is read. A plugin request's files go to a folder of its own, removed when the request
 * ends: a body cut off half-way leaves nothing behind, not even a part the parser was still writing.
 */
export default class PluginBodyParserMiddleware {
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
    if (limit === null) return (await app.container.make(BodyParserMiddleware)).handle(ctx, next)
    if (Number(ctx.request.header('content-length') ?? 0) > limit) {
      throw new CallFailure(message(ctx, 'error.too_large'), 413)
    }
    const dir = await mkdtemp(join(tmpdir(), 'tramita-upload-'))
    const config = app.config.get<any>('bodyparser')
    const multipart = { ...config.multipart, limit, tmpFileName: () => join(dir, randomUUID()) }
    try {
      return await new BodyParserMiddleware({ ...config, multipart }, app.experimentalFlags).handle(ctx, next)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
}
