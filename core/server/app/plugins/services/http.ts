import type { PluginHttp, PluginRoute } from '@tramita/plugin-api'

/**
 * Spec paths a plugin may declare besides its own `/api/<id>/...` (spec 001 §7, §8; 000 §7: the signing
 * flow's template under /static/plantillas/).
 */
export const SPEC_PREFIXES = [
  '/data/',
  '/inside/',
  '/getPublicFile/',
  '/confirmretention/',
  '/static/plantillas/',
] as const

/** Spec paths a plugin may declare as they are (spec 001 §7: PUT /confirmretention, beside its screen). */
export const SPEC_PATHS = ['/confirmretention'] as const

/** The core's routes under /api (start/routes.ts). */
const CORE_API = ['/api/plugins']

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE'])
const PATH = /^(?:\/(?:[A-Za-z0-9_.-]+|:[a-zA-Z_][a-zA-Z0-9_]*))+$/

/** A route a plugin declared, with its full path. */
export interface DeclaredRoute {
  pluginId: string
  path: string
  route: PluginRoute
}

/**
 * The full path of a plugin's route: under its namespace (`/api/<id>/...`; a relative path is put
 * there) or under a spec prefix. Another plugin's namespace, the core's /api and anything with
 * odd characters are refused when the plugin declares it.
 */
export function routePath(pluginId: string, path: string): string {
  const namespace = `/api/${pluginId}`
  const full = path.startsWith('/') ? path : `${namespace}/${path}`
  if (!PATH.test(full) || full.includes('/../') || full.endsWith('/..')) {
    throw new Error(`plugin "${pluginId}": invalid route path "${path.slice(0, 100)}"`)
  }
  // The core's own /api routes are not a plugin's namespace (a plugin called "plugins", say).
  if (CORE_API.some((path) => full === path || full.startsWith(`${path}/`))) {
    throw new Error(`plugin "${pluginId}": route "${path.slice(0, 100)}" is the core's`)
  }
  if (full === namespace || full.startsWith(`${namespace}/`)) return full
  if (SPEC_PREFIXES.some((prefix) => full.startsWith(prefix))) return full
  if ((SPEC_PATHS as readonly string[]).includes(full)) return full
  throw new Error(`plugin "${pluginId}": route "${path.slice(0, 100)}" is neither under ${namespace} nor a spec path`)
}

/** Checks one declaration: method, auth, limits. Throws with the plugin's name. */
export function checkRoute(pluginId: string, route: PluginRoute): void {
  const where = `plugin "${pluginId}" route ${route.method} ${route.path}`
  if (!METHODS.has(route.method)) throw new Error(`${where}: unknown method`)
  const auth = route.auth
  const authOk =
    auth === 'public' ||
    auth === 'signed-in' ||
    (typeof auth === 'object' && Array.isArray(auth.roles) && auth.roles.length > 0)
  if (!authOk) throw new Error(`${where}: auth must be 'public', 'signed-in' or { roles: [...] }`)
  if (typeof route.handle !== 'function') throw new Error(`${where}: no handle()`)
  const limit = route.rateLimit
  if (
    limit &&
    (!['ip', 'user'].includes(limit.per) ||
      !(Number.isInteger(limit.max) && limit.max > 0) ||
      !(Number.isInteger(limit.windowSeconds) && limit.windowSeconds > 0))
  ) {
    throw new Error(`${where}: rateLimit needs per 'ip'|'user' and positive whole max and windowSeconds`)
  }
  if (limit?.per === 'user' && auth === 'public') throw new Error(`${where}: a public route is limited per 'ip'`)
  if (route.maxBytes !== undefined && !(Number.isSafeInteger(route.maxBytes) && route.maxBytes > 0)) {
    throw new Error(`${where}: maxBytes must be a positive whole number`)
  }
}

/** Every plugin's declared routes, mounted by the host in the routes phase. */
export class RouteTable {
  private readonly routes: DeclaredRoute[] = []
  private mounted = false

  /** The `http` service of one plugin. */
  httpFor(pluginId: string, appUrl: string): PluginHttp {
    return {
      route: (route) => this.declare(pluginId, route),
      url: (path) => new URL(path.startsWith('/') ? path : `/${path}`, appUrl).href,
    }
  }

  declare(pluginId: string, route: PluginRoute): void {
    if (this.mounted) throw new Error(`plugin "${pluginId}": routes are declared in register, before they are mounted`)
    checkRoute(pluginId, route)
    const path = routePath(pluginId, route.path)
    const clash = this.routes.find((r) => r.route.method === route.method && r.path === path)
    if (clash)
      throw new Error(`plugin "${pluginId}": ${route.method} ${path} is already declared by "${clash.pluginId}"`)
    this.routes.push({ pluginId, path, route })
  }

  /** The routes of one plugin (a plugin that failed later is left out by the host). */
  of(pluginId: string): DeclaredRoute[] {
    return this.routes.filter((r) => r.pluginId === pluginId)
  }

  find(method: string, path: string): DeclaredRoute | undefined {
    return this.routes.find((r) => r.route.method === method && r.path === path)
  }

  all(): readonly DeclaredRoute[] {
    return this.routes
  }

  markMounted(): void {
    this.mounted = true
  }
}
