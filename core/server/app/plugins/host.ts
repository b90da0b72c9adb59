import type {
  PluginContext,
  PluginDefinition,
  PluginJob,
  PluginLogger,
  PluginNavEntry,
  PluginRouter,
  PluginServices,
  SettingsDeclaration,
} from '@tramita/plugin-api'
import { qualifiedJobName } from '@tramita/plugin-api'
import type { LoadedDefinition } from './enabled.js'

export type PluginState = 'loaded' | 'booted' | 'failed'

export interface PluginStatus {
  id: string
  version: string | null
  enabled: boolean
  state: PluginState
  error?: string
}

interface Entry {
  id: string
  definition?: PluginDefinition
  ctx?: PluginContext
  state: PluginState
  error?: string
}

export interface HostDeps {
  logger: PluginLogger & { child?(bindings: object): PluginLogger }
  registerJob(job: PluginJob): void
  enqueue: PluginContext['enqueue']
  publish: PluginContext['publish']
  config: Readonly<Record<string, string | undefined>>
  /** The services of each plugin's context (services/factory.ts; tests pass fakes). */
  services: {
    forPlugin(id: string, definition: PluginDefinition, ready: () => boolean): PluginServices
  }
  /** Mounts the routes a plugin declared with `ctx.http.route`. */
  mountRoutes?(router: PluginRouter, pluginId: string): void
}

/**
 * Runs the plugins' lifecycle. Each hook of each plugin is isolated: a plugin that throws is marked
 * failed with its name and reason, logged, and left out of later hooks; the others go on.
 */
export class PluginHost {
  private readonly entries: Entry[]
  /** False while plugins register: their data services throw until boot. */
  private ready = false

  constructor(
    loaded: LoadedDefinition[],
    private readonly deps: HostDeps
  ) {
    this.entries = loaded.map((l) => ({
      id: l.id,
      definition: l.definition,
      state: l.definition ? 'loaded' : 'failed',
      error: l.error,
    }))
    for (const entry of this.entries) {
      if (entry.error) deps.logger.error(`plugin "${entry.id}" could not be loaded: ${entry.error}`)
    }
  }

  private live(): Entry[] {
    return this.entries.filter((e) => e.state !== 'failed' && e.definition)
  }

  private contextFor(entry: Entry): PluginContext {
    entry.ctx ??= {
      ...this.deps.services.forPlugin(entry.id, entry.definition!, () => this.ready),
      id: entry.id,
      namespace: `/api/${entry.id}`,
      logger: this.deps.logger.child?.({ plugin: entry.id }) ?? this.deps.logger,
      enqueue: this.deps.enqueue,
      publish: this.deps.publish,
      config: this.deps.config,
    }
    return entry.ctx
  }

  private async guard(entry: Entry, hook: string, fn: () => unknown): Promise<void> {
    try {
      await fn()
    } catch (error) {
      entry.state = 'failed'
      entry.error = `${hook} failed: ${error instanceof Error ? error.message : String(error)}`
      this.deps.logger.error(`plugin "${entry.id}" ${entry.error}`)
    }
  }

  /** register(), then the plugin's jobs. */
  async register(): Promise<void> {
    for (const entry of this.live()) {
      const def = entry.definition!
      await this.guard(entry, 'register', async () => {
        await def.register?.(this.contextFor(entry))
        for (const job of def.jobs ?? []) {
          this.deps.registerJob({ ...job, name: qualifiedJobName(entry.id, job.name) })
        }
      })
    }
  }

  /** Mounts each live plugin's declared routes, then its raw `routes` hook. */
  async routes(router: PluginRouter): Promise<void> {
    for (const entry of this.live()) {
      const def = entry.definition!
      await this.guard(entry, 'routes', () => {
        this.deps.mountRoutes?.(router, entry.id)
        return def.routes?.(router, this.contextFor(entry))
      })
    }
  }

  async boot(): Promise<void> {
    this.ready = true
    for (const entry of this.live()) {
      await this.guard(entry, 'boot', () => entry.definition!.boot?.(this.contextFor(entry)))
      if (entry.state !== 'failed') entry.state = 'booted'
    }
  }

  async shutdown(): Promise<void> {
    for (const entry of this.live().reverse()) {
      await this.guard(entry, 'shutdown', () => entry.definition!.shutdown?.(this.contextFor(entry)))
    }
  }

  /** Commands of the live plugins, named `<plugin>:<command>`. */
  commands() {
    return this.live().flatMap((entry) =>
      (entry.definition!.commands ?? []).map((command) => ({
        name: `${entry.id}:${command.name}`,
        command,
        ctx: this.contextFor(entry),
      }))
    )
  }

  /**
   * The nav entries of the live plugins that a caller with these roles may see, in load order. An
   * entry without roles is for everyone; the superuser sees every entry.
   */
  navigation(roles: string[]): (PluginNavEntry & { plugin: string })[] {
    return this.live().flatMap((entry) =>
      (entry.definition!.nav ?? [])
        .filter((n) => !n.roles?.length || roles.includes('superuser') || n.roles.some((r) => roles.includes(r)))
        .map((n) => ({ plugin: entry.id, path: n.path, label: n.label }))
    )
  }

  /**
   * The settings declarations of the live plugins that have settings, in load order: what the
   * administrators' settings screen lists and may save (a failed plugin's are neither).
   */
  settingsDeclarations(): { id: string; settings: SettingsDeclaration }[] {
    return this.live().flatMap((entry) => {
      const settings = entry.definition!.settings
      return settings && Object.keys(settings).length ? [{ id: entry.id, settings }] : []
    })
  }

  status(): PluginStatus[] {
    return this.entries.map((e) => ({
      id: e.id,
      version: e.definition?.version ?? null,
      enabled: e.state !== 'failed',
      state: e.state,
      ...(e.error ? { error: e.error } : {}),
    }))
  }
}
