import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import { MultipartFile } from '@adonisjs/core/bodyparser'
import env from '#start/env'
import { StorageFull, tooFullFor } from '#lib/disk_space'
import { CallFailure } from '#lib/envelope'
import { message } from '#lib/messages'
import { uploadTempDir } from '#lib/paths'
import { REQUEST_FOLDER_PREFIX } from '#lib/request_folders'
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
 * before a byte is read. Every multipart request's files go to a folder of its own in uploadTempDir(),
 * removed when the request ends: a body cut off half-way, or a disk that filled up under it (ENOSPC,
 * answered 507 by the exception handler), leaves nothing behind, not even the files before the one
 * that failed, which the parser would keep.
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
    if (!ctx.request.is(['multipart/form-data'])) {
      return (await app.container.make(BodyParserMiddleware)).handle(ctx, next)
    }
    const limit = this.limitOf(ctx)
    if (limit !== null && Number(ctx.request.header('content-length') ?? 0) > limit) {
      throw new CallFailure(message(ctx, 'error.too_large'), 413)
    }
    const dir = await mkdtemp(join(uploadTempDir(), REQUEST_FOLDER_PREFIX))
    let ended = false
    const config = app.config.get<any>('bodyparser')
    const multipart = {
      ...config.multipart,
      ...(limit === null ? {} : { limit }),
      // The parser goes on reading parts after a failed one: none may start a file once the folder goes.
      tmpFileName: () => {
        if (ended) throw new Error('the request has ended')
        return join(dir, randomUUID())
      },
    }
    // The parser rejects a failed write on the next tick; a body it has read whole by then lets it call on
    // instead, the error dropped (measured: a 200 KB file posted onto a full disk reached the controller
    // without its copy, a 400 'no file'). Its state still says so, and the disk is asked, as for stored objects.
    const parsed: NextFn = async () => {
      const unwritten = filesOf(ctx.request.allFiles()).filter((file) => !file.tmpPath)
      const bytes = Math.max(0, ...unwritten.map((file) => file.size))
      if (ctx.request.multipart.state === 'error' && bytes > 0 && (await tooFullFor(dir, bytes))) {
        throw new StorageFull(undefined, 'the temporary folder of uploads')
      }
      return next()
    }
    try {
      return await new BodyParserMiddleware({ ...config, multipart }, app.experimentalFlags).handle(ctx, parsed)
    } finally {
      ended = true
      // Retried: a part whose file was being opened as the request ended may land after the listing.
      await rm(dir, { recursive: true, force: true, maxRetries: 3 })
    }
  }
}

/** Every file of a request, however its field names nest them. */
function filesOf(value: unknown): MultipartFile[] {
  if (value instanceof MultipartFile) return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(filesOf)
  return []
}
