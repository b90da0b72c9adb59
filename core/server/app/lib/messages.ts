import type { HttpContext } from '@adonisjs/core/http'
import { pickLanguage, translate } from '@tramita/i18n'

/** A server message in the caller's language (Accept-Language; Spanish by default). */
export function message(ctx: Pick<HttpContext, 'request'>, key: string, vars?: Record<string, unknown>): string {
  return translate(pickLanguage(ctx.request.header('accept-language') ?? undefined), key, vars)
}
