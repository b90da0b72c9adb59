import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import { message } from '#lib/messages'
import { MAX_JSON_DEPTH, textTooDeep } from '#lib/json_input'
import { validationMessage } from '#lib/validation_message'
import { PluginFailure } from '@tramita/plugin-api'
import { languageOf } from '#lib/messages'
import { isText, pluginText } from '#plugins/services/texts'

interface ErrorLike {
  status?: number
  code?: string
  message?: string
  messages?: unknown
  stack?: string
  extra?: Record<string, unknown>
  retryAfter?: number
  /** The raw text of a JSON body the body parser could not parse. */
  body?: unknown
}

/** Error codes whose message is written for the caller and may be shown as is. */
const SAFE_CODES = new Set(['E_CALL_FAILED', 'E_ROUTE_NOT_FOUND', 'E_VALIDATION_ERROR'])

/**
 * Every failure answers `{status:'fail', message}` for API paths, with a 4xx code and a reason when
 * the caller is at fault and a generic 500 otherwise. Stack traces are shown only in development.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = !app.inProduction && !app.inTest

  async handle(error: unknown, ctx: HttpContext) {
    if (isPluginFailure(error)) return this.pluginFailure(error, ctx)
    const err = (error ?? {}) as ErrorLike
    // A service the request needs cannot take it now: a status and a reason that say so, not a 500.
    if (databaseDown(err)) return this.serviceFailure(ctx, 503, 'error.database_unavailable', 5)
    if (storageFull(err)) return this.serviceFailure(ctx, 507, 'error.storage_full')
    if (storageDown(err)) return this.serviceFailure(ctx, 503, 'error.storage_unavailable', 5)
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 600 ? err.status : 500
    if (status >= 500 && this.debug && !this.wantsJson(ctx)) {
      return super.handle(error, ctx)
    }
    const body: Record<string, unknown> = { status: 'fail', message: this.publicMessage(err, status, ctx) }
    if (err.code === 'E_CALL_FAILED' && err.extra) Object.assign(body, err.extra, { status: 'fail' })
    if (status === 429 && err.retryAfter) ctx.response.header('Retry-After', String(err.retryAfter))
    if (this.debug && err.stack) body.stack = err.stack
    return ctx.response.status(status).send(body)
  }

  async report(error: unknown, ctx: HttpContext) {
    // A plugin's deliberate refusal is an answer, not a fault to log.
    if (isPluginFailure(error) && error.status < 500) return
    return super.report(error, ctx)
  }

  private serviceFailure(ctx: HttpContext, status: number, key: string, retryAfterSeconds?: number) {
    if (retryAfterSeconds) ctx.response.header('Retry-After', String(retryAfterSeconds))
    return ctx.response.status(status).send({ status: 'fail', message: message(ctx, key) })
  }

  /**
   * A plugin's refusal: its status (400 unless it said otherwise, 4xx or 5xx) and its message, a text
   * key of the plugin's (`documents.no_rename`, filled with `extra`) translated for the caller.
   */
  private pluginFailure(error: PluginFailure, ctx: HttpContext) {
    const status = Number.isInteger(error.status) && error.status >= 400 && error.status < 600 ? error.status : 400
    const text = isText(error.message) ? pluginText(languageOf(ctx), error.message, error.extra) : error.message
    const body: Record<string, unknown> = {
      ...error.extra,
      status: 'fail',
      message: text || message(ctx, 'error.generic'),
    }
    if (this.debug && status >= 500 && error.stack) body.stack = error.stack
    return ctx.response.status(status).send(body)
  }

  private publicMessage(err: ErrorLike, status: number, ctx: HttpContext): string {
    if (err.code === 'E_VALIDATION_ERROR' && Array.isArray(err.messages) && err.messages.length) {
      return validationMessage(ctx, err.messages[0] as { field?: string; rule?: string })
    }
    if (err.code === 'E_ROUTE_NOT_FOUND') {
      return message(ctx, 'error.not_found', { method: ctx.request.method(), path: ctx.request.url() })
    }
    // A deliberate 503 (a service the request needs cannot answer now) tells why; other 5xx do not.
    if (status >= 500 && !(status === 503 && err.code === 'E_CALL_FAILED')) return message(ctx, 'error.internal')
    if (err.code && SAFE_CODES.has(err.code) && err.message) return err.message
    // Body-parser and other framework 4xx errors: their messages describe the request, not the server.
    if (status === 413) return message(ctx, 'error.too_large')
    // The body parser's prototype scan recurses, so a very deep JSON body fails there, not in our check.
    if (status === 400 && typeof err.body === 'string' && textTooDeep(err.body)) {
      return message(ctx, 'error.json_too_deep', { max: MAX_JSON_DEPTH })
    }
    // A JSON body that does not parse carries its text: JSON.parse's own words are the runtime's, untranslated.
    if (status === 400 && (err.code?.startsWith('E_') || typeof err.body === 'string')) {
      return message(ctx, 'error.malformed_body')
    }
    return err.message || message(ctx, 'error.generic')
  }

  private wantsJson(ctx: HttpContext): boolean {
    const url = ctx.request.url()
    return (
      url.startsWith('/data/') ||
      url.startsWith('/inside/') ||
      url.startsWith('/api/') ||
      url.startsWith('/getPublicFile/') ||
      url === '/health' ||
      ctx.request.accepts(['html', 'json']) === 'json'
    )
  }
}

/** Connection failures of mysql2 and knex, and SQLite's busy timeout, whatever the query was. */
const DATABASE_DOWN_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
])

/**
 * Is this the database not answering (seen in the load test while MariaDB restarted: 500s)? mysql2
 * marks an error that ended its connection `fatal` (some, like a command sent on a closed connection,
 * have no code); knex names a pool that found no connection in time KnexTimeoutError.
 */
function databaseDown(err: ErrorLike & { fatal?: unknown; name?: string; sql?: unknown }): boolean {
  if (err.name === 'KnexTimeoutError' || err.code === 'SQLITE_BUSY' || err.fatal === true) return true
  // knex's answer to a query in a transaction whose connection failed under it.
  if (err.message?.startsWith('Transaction query already complete')) return true
  return typeof err.code === 'string' && DATABASE_DOWN_CODES.has(err.code) && err.sql !== undefined
}

/**
 * A write the disk had no room for (ENOSPC), also when wrapped by the storage library (its `cause`): a
 * 507 saying so. Where it comes from an upload, the upload's rows and objects are gone already
 * (uploads/staging.ts stageUploads), and so are the body parser's copies (plugins/body_parser_middleware.ts).
 */
function storageFull(err: unknown): boolean {
  return causes(err).some((e) => (e as ErrorLike).code === 'ENOSPC')
}

/** An error and the errors it wraps (`cause`), four deep: what a storage library's own error hides. */
function causes(err: unknown): unknown[] {
  const chain: unknown[] = []
  for (let e = err; e && chain.length < 4; e = (e as { cause?: unknown }).cause) chain.push(e)
  return chain
}

/**
 * S3 not answering (lib/storage_timeouts.ts), also when wrapped by the storage library (its `cause`): an
 * AWS SDK error, after its retries, that got no HTTP answer (a timeout, a refused or broken connection)
 * or a 5xx. A 4xx (a missing file, a refused key) is not the store down.
 */
export function storageDown(err: unknown): boolean {
  type SdkError = { $metadata?: { httpStatusCode?: number } | null }
  const metadata = causes(err)
    .map((e) => (e as SdkError).$metadata)
    .find((m) => typeof m === 'object' && m !== null)
  if (!metadata) return false
  return metadata.httpStatusCode === undefined || metadata.httpStatusCode >= 500
}

/** A PluginFailure, also one from a second copy of the plugin-api module (by name and shape). */
function isPluginFailure(error: unknown): error is PluginFailure {
  return (
    error instanceof PluginFailure ||
    (error instanceof Error &&
      error.name === 'PluginFailure' &&
      typeof (error as { status?: unknown }).status === 'number')
  )
}
