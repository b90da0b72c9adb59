import { resolve } from 'node:path'
import router from '@adonisjs/core/services/router'
import { isContractPath } from '#lib/call_contract'
import { REPO_ROOT } from '#lib/paths'
import { pluginDir } from '#plugins/enabled'
import { platform } from '#services/platform'
import type { DeclaredRoute } from '#plugins/services/http'
import { controllerInputs, pluginHandleInputs, type HandlerInputs, type InputRead } from './handler_inputs.js'

/**
 * The OpenAPI 3.1 description of every route, generated from the router (core routes and the enabled
 * plugins' declared routes) and from what each handler reads (handler_inputs.ts). The committed copy
 * (core/server/openapi.json, `npm run openapi`) is what /openapi.json serves; a functional test fails
 * when it drifts from a fresh generation.
 */
type Json = Record<string, unknown>

export const OPENAPI_FILE = resolve(REPO_ROOT, 'core', 'server', 'openapi.json')

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** The router's pattern (`/inside/users/:id`). */
  pattern: string
  /** Parameter name to its pattern, from the route's `where`. */
  matchers: Record<string, string>
  /** 'public': no guard before the handler; else who the route's guard lets through. */
  auth: 'public' | 'signed-in' | { roles: string[] }
  plugin: string | null
  /** Files larger than this are refused (plugin routes' maxBytes). */
  maxBytes?: number
  inputs: HandlerInputs
}

const CONTROLLERS_DIR = resolve(REPO_ROOT, 'core', 'server', 'app', 'controllers')

/** A guard's roles from the auth middleware's arguments (start/kernel.ts `middleware.auth({ roles })`). */
function authOf(middleware: unknown): RouteEntry['auth'] {
  const list =
    middleware && typeof (middleware as { all?: unknown }).all === 'function'
      ? [...(middleware as { all(): Iterable<unknown> }).all()]
      : Array.isArray(middleware)
        ? middleware
        : []
  for (const entry of list as { name?: string; args?: { roles?: string[] } }[]) {
    if (entry?.name !== 'auth') continue
    return entry.args?.roles?.length ? { roles: [...entry.args.roles].sort() } : 'signed-in'
  }
  return 'public'
}

/** The routes the router holds, joined with their plugin's declaration; `skipPlugins` leaves test fixtures out. */
export function collectRoutes(skipPlugins: readonly string[] = []): RouteEntry[] {
  const services = platform().pluginServices
  const live = new Set(
    platform()
      .plugins.status()
      .filter((s) => s.enabled)
      .map((s) => s.id)
  )
  const declared = new Map<string, DeclaredRoute>(
    (services?.routes.all() ?? [])
      .filter((d) => live.has(d.pluginId))
      .map((d) => [`${d.route.method} ${d.path}`, d] as const)
  )
  const out: RouteEntry[] = []
  for (const route of Object.values(router.toJSON()).flat()) {
    const matchers = Object.fromEntries(
      Object.entries(route.matchers ?? {}).flatMap(([name, m]) =>
        m?.match instanceof RegExp ? [[name, m.match.source]] : []
      )
    )
    for (const method of route.methods) {
      if (method === 'HEAD') continue
      const key = `${method} ${route.pattern}`
      const plugin = declared.get(key)
      if (plugin && skipPlugins.includes(plugin.pluginId)) continue
      const base = { method: method as RouteEntry['method'], pattern: route.pattern, matchers }
      if (plugin) {
        const auth = plugin.route.auth
        out.push({
          ...base,
          auth:
            auth === 'public' || auth === 'signed-in'
              ? auth
              : { roles: [...new Set([...auth.roles, 'superuser'])].sort() },
          plugin: plugin.pluginId,
          maxBytes: plugin.route.maxBytes,
          inputs: pluginHandleInputs(plugin.route.handle as never, resolve(pluginDir(plugin.pluginId), 'server')),
        })
        continue
      }
      const handler = route.handler as { importExpression?: string | null; method?: string; reference?: unknown }
      const module = /#controllers\/([a-z_]+)/.exec(String(handler.importExpression ?? ''))?.[1]
      const inputs: HandlerInputs =
        module && handler.method
          ? controllerInputs(resolve(CONTROLLERS_DIR, `${module}.ts`), null, handler.method)
          : { reads: [], validators: [], hidden: ['a handler that is not a controller method'] }
      out.push({ ...base, auth: authOf(route.middleware), plugin: null, inputs })
    }
  }
  return out.sort((a, b) => a.pattern.localeCompare(b.pattern) || a.method.localeCompare(b.method))
}

function valueSchema(read: InputRead): Json {
  switch (read.kind) {
    case 'text':
      return { type: 'string', ...(read.maxLength ? { maxLength: read.maxLength } : {}) }
    case 'bool':
      return { type: ['string', 'boolean'], enum: [true, false, 'true', 'false', '1', '0', 'on', 'off', 'yes', 'no'] }
    case 'json':
      return {
        type: ['string', 'object', 'array'],
        contentMediaType: 'application/json',
        description: 'JSON text in form-data, a value in a JSON body',
      }
    case 'id':
      return { type: ['string', 'integer'], pattern: '^\\d{1,10}$', minimum: 1 }
    case 'file':
      return { type: 'string', format: 'binary' }
    case 'files':
      return { type: 'array', items: { type: 'string', format: 'binary' } }
    default:
      return {}
  }
}

/** `/inside/users/:id` → `/inside/users/{id}`; the web app's catch-all has no OpenAPI form. */
function openapiPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, '{$1}')
}

async function validatorSchema(module: string, name: string): Promise<Json | null> {
  const loaded = (await import(module)) as Record<string, { toJSONSchema?: () => Json }>
  const schema = loaded[name]?.toJSONSchema?.()
  return schema && typeof schema === 'object' ? schema : null
}

function operationId(route: RouteEntry): string {
  const words = `${route.method.toLowerCase()} ${route.pattern}`.split(/[^A-Za-z0-9]+/).filter(Boolean)
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('')
}

export async function buildDocument(routes: RouteEntry[], version: string): Promise<Json> {
  const paths: Record<string, Record<string, Json>> = {}
  const undescribed: Json[] = []
  const schemas: Record<string, Json> = {}
  for (const route of routes) {
    const key = `${route.method} ${route.pattern}`
    if (route.pattern === '/*') {
      undescribed.push({ route: key, reasons: ["the web app's catch-all (any GET path not matched above)"] })
      continue
    }
    const reasons = [...route.inputs.hidden]
    const properties: Record<string, Json> = {}
    const required = new Set<string>()
    for (const validator of route.inputs.validators) {
      const schema = await validatorSchema(validator.module, validator.name)
      if (!schema) {
        reasons.push(`${validator.name} has no JSON Schema`)
        continue
      }
      Object.assign(properties, (schema.properties ?? {}) as Record<string, Json>)
      for (const name of (schema.required ?? []) as string[]) required.add(name)
    }
    for (const read of route.inputs.reads) {
      // A field read twice (a check then a parse) keeps its strictest description.
      if (!properties[read.name] || read.kind !== 'any') properties[read.name] = valueSchema(read)
      if (read.required) required.add(read.name)
    }
    const params = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => m[1])
    const parameters: Json[] = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', ...(route.matchers[name] ? { pattern: route.matchers[name] } : {}) },
    }))
    const contract = isContractPath(route.pattern)
    if (contract)
      properties.case = {
        type: 'string',
        enum: [route.method],
        description: 'the call contract: the method, tunnelled through POST',
      }
    const bodySchema: Json = {
      type: 'object',
      properties: Object.fromEntries(Object.entries(properties).sort(([a], [b]) => a.localeCompare(b))),
      ...(required.size ? { required: [...required].sort() } : {}),
    }
    const operation: Json = {
      operationId: operationId(route),
      tags: [route.plugin ?? 'core'],
      ...(route.plugin ? { 'x-tramita-plugin': route.plugin } : {}),
      security: route.auth === 'public' ? [{}, { token: [] }] : [{ token: [] }],
      'x-tramita-auth': route.auth,
    }
    if (route.method === 'GET' || route.method === 'DELETE') {
      for (const [name, schema] of Object.entries(bodySchema.properties as Record<string, Json>)) {
        if (schema.format === 'binary' || (schema.items as Json | undefined)?.format === 'binary') continue
        parameters.push({ name, in: 'query', required: required.has(name), schema })
      }
    } else {
      const multipart = route.inputs.reads.some((r) => r.kind === 'file' || r.kind === 'files')
      const textOnly = Object.fromEntries(
        Object.entries(bodySchema.properties as Record<string, Json>).filter(
          ([, s]) => s.format !== 'binary' && s.type !== 'array'
        )
      )
      // One schema per body, referenced by each content type (JSON bodies carry no files).
      const name = `${operationId(route)}Body`
      schemas[name] = bodySchema
      const ref = { $ref: `#/components/schemas/${name}` }
      operation.requestBody = {
        required: required.size > 0,
        content: {
          'multipart/form-data': { schema: ref },
          ...(multipart
            ? {}
            : {
                'application/x-www-form-urlencoded': { schema: ref },
                'application/json': {
                  schema:
                    Object.keys(textOnly).length === Object.keys(bodySchema.properties as Json).length
                      ? ref
                      : { ...bodySchema, properties: textOnly },
                },
              }),
        },
      }
      if (route.maxBytes) operation['x-tramita-max-bytes'] = route.maxBytes
    }
    if (parameters.length) operation.parameters = parameters
    operation.responses = {
      '200': { $ref: '#/components/responses/Done' },
      '4XX': { $ref: '#/components/responses/Fail' },
    }
    if (reasons.length) {
      operation['x-tramita-undescribed'] = reasons
      undescribed.push({ route: key, reasons })
    }
    ;(paths[openapiPath(route.pattern)] ??= {})[route.method.toLowerCase()] = operation
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tramita',
      version,
      description:
        'Generated from the routes and what their handlers read (core/server/app/services/openapi). Spec calls ' +
        '(/data, /inside, /getPublicFile) may be POSTed with the method in the `case` field. Answers are ' +
        "{status:'done', data} or {status:'fail', message}; some routes answer a file.",
    },
    components: {
      securitySchemes: {
        token: {
          type: 'apiKey',
          in: 'header',
          name: 'token',
          description:
            'A session token (PUT /data/login) or an API token; the route says which roles it lets through (x-tramita-auth)',
        },
      },
      schemas: {
        Done: { type: 'object', required: ['status', 'data'], properties: { status: { const: 'done' }, data: {} } },
        Fail: {
          type: 'object',
          required: ['status', 'message'],
          properties: { status: { const: 'fail' }, message: { type: 'string' } },
        },
        ...schemas,
      },
      responses: {
        Done: {
          description: 'Done (or a file)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Done' } } },
        },
        Fail: {
          description: 'Refused, with a reason',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Fail' } } },
        },
      },
    },
    paths,
    'x-tramita-undescribed': undescribed,
  }
}

/** The document as committed: stable key order, two-space JSON, a final newline. */
export function documentText(document: Json): string {
  return JSON.stringify(document, null, 2) + '\n'
}
