import { unlink } from 'node:fs/promises'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { MultipartFile } from '@adonisjs/core/bodyparser'
import { isLanguage, type Language } from '@tramita/i18n'
import type { PluginPrincipal, PluginRequest, PluginRouter, PluginStorage, PluginUpload } from '@tramita/plugin-api'
import { CallFailure, done } from '#lib/envelope'
import { headerValue } from '#lib/call_contract'
import { jsonField } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import AuthMiddleware from '#middleware/auth_middleware'
import { principalFor, type Principal } from '#services/auth/principal'
import { rateLimit } from '#services/rate_limits'
import { cleanName } from '#services/uploads/inspect'
import { fileExtension } from '@tramita/contract'
import { isFileAnswer, sendFile } from './file_answer.js'
import type { DeclaredRoute } from './http.js'
import { remember } from './principals.js'

/** The plugin's view of the core's principal (its areas read here: the principal's query has none). */
export async function pluginPrincipal(principal: Principal, language: Language): Promise<PluginPrincipal> {
  const areas = await db.from('user_areas').where('user_id', principal.user.id).select('area_id')
  return remember(
    {
      userId: principal.user.id,
      roles: [...principal.roles],
      // The principal's query loaded the user's roles with their ids.
      roleIds: (principal.user.roles ?? []).map((role) => Number(role.id)),
      areaIds: areas.map((a) => Number(a.area_id)),
      impersonatorId: principal.impersonatorId,
      language,
    },
    principal
  )
}

function uploadOf(file: MultipartFile): PluginUpload | undefined {
  if (!file.tmpPath) return undefined
  const name = cleanName(file.clientName)
  return {
    name,
    extension: fileExtension(name),
    size: file.size,
    clientType: file.type && file.subtype ? `${file.type}/${file.subtype}` : null,
    tmpPath: file.tmpPath,
  }
}

/** One text value of a field (form, JSON body or query); lists and objects are not a field's text. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** A request's fields as a plugin reads them (its routes, its link modules). */
export function pluginFields(ctx: HttpContext): Pick<PluginRequest, 'field' | 'json'> {
  return {
    field: (name) => textOf(ctx.request.input(name)),
    json: <T>(name: string) => jsonField(ctx, name, false) as T | undefined,
  }
}

/** Who calls: the auth middleware's work for guarded routes, an optional session on public ones. */
async function callerOf(ctx: HttpContext, declared: DeclaredRoute): Promise<Principal | null> {
  const auth = declared.route.auth
  if (auth === 'public') {
    const token = ctx.call?.token ?? headerValue(ctx.request.header('token'))
    return token ? principalFor(token) : null
  }
  // The superuser holds every role (plugin-api hasRole).
  const roles = auth === 'signed-in' ? undefined : [...new Set([...auth.roles, 'superuser'])]
  await new AuthMiddleware().handle(ctx, async () => {}, roles ? { roles } : {})
  return ctx.principal ?? null
}

async function limit(ctx: HttpContext, declared: DeclaredRoute, principal: Principal | null): Promise<void> {
  const rule = declared.route.rateLimit
  if (!rule) return
  const who = rule.per === 'user' && principal ? `u${principal.user.id}` : `ip${ctx.request.ip()}`
  const key = `plugin:${declared.pluginId}:${declared.route.method}:${declared.path}:${who}`
  const response = await rateLimit({ requests: rule.max, duration: `${rule.windowSeconds} sec` }).increment(key)
  if (response.consumed > rule.max) {
    const error = new CallFailure(message(ctx, 'auth.too_many_requests'), 429, 'E_CALL_FAILED')
    error.retryAfter = response.availableIn
    throw error
  }
}

/**
 * The Adonis handler of a plugin route: caller and roles, rate limit, the request the plugin sees,
 * its handler, then `{status:'done', data}` or the file it answered. Failures reach the exception
 * handler (PluginFailure keeps its status); the body parser's temporary files are deleted after.
 */
export function pluginHandler(declared: DeclaredRoute, storage: () => PluginStorage) {
  return async (ctx: HttpContext) => {
    const files = Object.values(ctx.request.allFiles()).flat() as MultipartFile[]
    try {
      const principal = await callerOf(ctx, declared)
      await limit(ctx, declared, principal)
      const language: Language = languageOf(ctx)
      const request: PluginRequest = {
        principal: principal ? await pluginPrincipal(principal, language) : null,
        params: Object.freeze({ ...(ctx.params as Record<string, string>) }),
        ...pluginFields(ctx),
        file: (name) => {
          const file = ctx.request.file(name)
          return file ? uploadOf(file) : undefined
        },
        files: (name) => ctx.request.files(name).flatMap((f) => uploadOf(f) ?? []),
        header: (name) => ctx.request.header(name) ?? undefined,
        ip: ctx.request.ip(),
        language: isLanguage(language) ? language : 'es',
      }
      const result = await declared.route.handle(request)
      if (isFileAnswer(result)) return await sendFile(ctx, result, storage())
      return done(result ?? null)
    } finally {
      await Promise.all(files.map((f) => (f.tmpPath ? unlink(f.tmpPath).catch(() => {}) : undefined)))
    }
  }
}

/**
 * Adds a plugin's declared routes to the router. One repeating a core route (a spec path) makes the
 * router refuse to commit at boot, naming it: the route_policy test boots with every enabled plugin.
 */
export function mountDeclaredRoutes(
  router: PluginRouter,
  declared: readonly DeclaredRoute[],
  storage: () => PluginStorage
): void {
  for (const route of declared) {
    const method = route.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
    router[method](route.path, pluginHandler(route, storage))
  }
}
