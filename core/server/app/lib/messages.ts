import type { HttpContext } from '@adonisjs/core/http'
import { pickLanguage, translate, type Language } from '@tramita/i18n'

/** The caller's language (Accept-Language; Spanish by default). */
export function languageOf(ctx: Pick<HttpContext, 'request'>): Language {
  return pickLanguage(ctx.request.header('accept-language') ?? undefined)
}

/** A server message in the caller's language. */
export function message(ctx: Pick<HttpContext, 'request'>, key: string, vars?: Record<string, unknown>): string {
  return translate(languageOf(ctx), key, vars)
}
