/**
 * The plugin contract. A plugin owns its tables (migrations), routes, jobs, commands and UI, and is
 * described by one `definePlugin({...})` value with no import side effects: the core's loader decides
 * when each hook runs. Plugins never import each other.
 *
 * The types here are structural on purpose (no AdonisJS imports), so a plugin's shared code can be
 * type-checked anywhere; the server passes its real router, logger and queue, which fit these shapes.
 */

import type { PluginServices } from './services.js'
import { declarationProblems, type SettingsDeclaration } from './settings.js'

export * from './services.js'
export * from './capabilities.js'
export * from './settings.js'

export interface PluginLogger {
  info(message: string, ...args: unknown[]): void
  warn(message: string, ...args: unknown[]): void
  error(message: string | object, ...args: unknown[]): void
}

export interface JobContext {
  id: string
  name: string
  /** 1-based number of this run of the job (counts retries, and with Redis a rerun after a dead worker). */
  attempt: number
  /** Aborted when the queue is closed while the job runs (not on a graceful stop); check it in long jobs. */
  signal: AbortSignal
}

/**
 * A background job. Handlers must be idempotent: a job may run again after a failure or after its
 * worker died. Payloads and results must be JSON-serialisable.
 */
export interface PluginJob<P = any, R = unknown> {
  /** Prefixed with the plugin id by the loader when it is not already: `documents:ocr`. */
  name: string
  handle(payload: P, ctx: JobContext): Promise<R>
  /** Runs in all, including the first (default 3). */
  attempts?: number
  /** Base of the exponential backoff: base × 2^(attempt-1) ms after failed run `attempt` (default 1000). */
  backoffMs?: number
  /** Most runs of this job at the same time in one worker process (default: the worker's own limit). */
  concurrency?: number
}

/**
 * A program a plugin ships that runs on its own, without the server's app or database: `tramita <name>
 * [args]` (the devices plugin's agent, on the computer that has the printers). Declared by the plugin
 * package's `./programs` export (default: a list of these), so the CLI finds it without booting the app.
 * `run` resolves when the program ends (its exit code, 0 by default).
 */
export interface PluginProgram {
  /** Lower-case letters, digits and dashes; not a built-in command's name. */
  name: string
  description: string
  run(argv: string[]): Promise<number | void>
}

/** A CLI command: `tramita <plugin-id>:<name> [args] [--options]`. */
export interface PluginCommand {
  name: string
  description: string
  options?: { flags: string; description: string; defaultValue?: string | boolean }[]
  run(args: string[], options: Record<string, unknown>, ctx: PluginContext): Promise<void> | void
}

/**
 * What the core passes each hook of a plugin: who it is, its logger and config, and the services of
 * services.ts (database, storage, people, audit, mail, jobs, sockets, settings, usage, texts, tokens,
 * routes). Data services throw in `register`, which only declares (routes, schedules).
 */
export interface PluginContext extends PluginServices {
  /** The plugin's id. */
  id: string
  /** Route prefix the plugin owns: `/api/<id>`. Spec routes (/data/..., /inside/...) may be used too. */
  namespace: string
  logger: PluginLogger
  /** Enqueue one of the registered jobs (any plugin's or the core's). */
  enqueue(name: string, payload: unknown, opts?: { jobId?: string; delayMs?: number }): Promise<{ id: string }>
  /**
   * Sends a `{case, data}` message on /ws to everyone, one user's connections or one socket, on
   * whichever app node they are connected to.
   */
  publish(
    to: { all: true } | { userId: number } | { socketId: string },
    message: { case: string; data: unknown }
  ): Promise<void>
  /** Read-only configuration values the plugin may need (env-derived). */
  config: Readonly<Record<string, string | undefined>>
}

/** The slice of the HTTP router a plugin receives; the server passes the AdonisJS router. */
export interface PluginRouter {
  get(path: string, handler: any): any
  post(path: string, handler: any): any
  put(path: string, handler: any): any
  delete(path: string, handler: any): any
  group(callback: () => void): { prefix(prefix: string): any }
}

/**
 * A link the home page and navigation offer to one of the plugin's own web screens: the plugin must
 * ship a screen at `path` (its `web` module), so a plugin without screens declares no nav entries
 * (definePlugin refuses them) and no one is offered a link that opens "page not found". `label` is a
 * key of the shared texts (core/i18n); `roles` lists who sees it (absent or empty: every signed-in user).
 */
export interface PluginNavEntry {
  path: string
  label: string
  roles?: string[]
}

export interface PluginDefinition {
  /** Lower-case letters, digits and dashes; also the folder name under plugins/. */
  id: string
  version: string
  description?: string
  /** Called before boot, in load order: bind services, read config. */
  register?(ctx: PluginContext): void | Promise<void>
  /** Called once the app and database are ready. A throw disables this plugin only. */
  boot?(ctx: PluginContext): void | Promise<void>
  /** Called on graceful shutdown, in reverse order. */
  shutdown?(ctx: PluginContext): void | Promise<void>
  /**
   * Registers raw AdonisJS routes: an escape hatch kept for review. Prefer `ctx.http.route` (in
   * `register`), which gives auth, limits, uploads, the envelope and errors the core's way.
   */
  routes?(router: PluginRouter, ctx: PluginContext): void
  /**
   * The plugin's settings, each with its type, default and bounds (settings.ts): administrators change
   * them on the core's settings screen, checked against this; `ctx.settings.get()` gives plain values.
   */
  settings?: SettingsDeclaration
  /** Absolute path of the folder with the plugin's Lucid migrations. */
  migrations?: string
  jobs?: PluginJob[]
  commands?: PluginCommand[]
  /**
   * Module (relative to the plugin folder) that runtime-web loads for this plugin's screens, one for
   * each `nav` path. Declare it only once those screens exist.
   */
  web?: string
  /** Module (relative to the plugin folder) that the designer loads for this plugin's field types. */
  designer?: string
  /** The plugin's entries in the navigation, shown to the roles each names; only with `web` (its screens). */
  nav?: PluginNavEntry[]
}

const ID_PATTERN = /^[a-z][a-z0-9-]{1,39}$/
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/
/** A path of the web app (no scheme, host or query: a plugin links to its own screens). */
const NAV_PATH = /^(?:\/[a-z0-9_-]+)+$/
const LABEL_KEY = /^[a-z][\w.-]{0,99}$/

/** Declares a plugin; checks the shape early so a bad definition fails at load with its name. */
export function definePlugin(definition: PluginDefinition): PluginDefinition {
  if (!ID_PATTERN.test(definition.id)) {
    throw new Error(`Invalid plugin id "${definition.id}": use 2-40 lower-case letters, digits or dashes`)
  }
  if (!SEMVER.test(definition.version)) {
    throw new Error(`Plugin "${definition.id}" has an invalid version "${definition.version}"`)
  }
  if (definition.nav?.length && !definition.web) {
    throw new Error(`Plugin "${definition.id}" declares nav entries but no web screens for them (\`web\`)`)
  }
  for (const entry of definition.nav ?? []) {
    if (!NAV_PATH.test(entry.path) || !LABEL_KEY.test(entry.label)) {
      throw new Error(`Plugin "${definition.id}" declares an invalid nav entry "${entry.path}" (${entry.label})`)
    }
  }
  const settingsProblem = definition.settings && declarationProblems(definition.settings)[0]
  if (settingsProblem) throw new Error(`Plugin "${definition.id}" declares an invalid ${settingsProblem}`)
  const names = new Set<string>()
  for (const job of definition.jobs ?? []) {
    if (names.has(job.name)) throw new Error(`Plugin "${definition.id}" declares job "${job.name}" twice`)
    names.add(job.name)
  }
  return Object.freeze({ ...definition })
}

/** The qualified name of a plugin job: `<plugin>:<job>`. */
export function qualifiedJobName(pluginId: string, jobName: string): string {
  return jobName.startsWith(`${pluginId}:`) ? jobName : `${pluginId}:${jobName}`
}
