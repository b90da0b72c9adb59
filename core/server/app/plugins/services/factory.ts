import { resolve } from 'node:path'
import type { PluginDefinition, PluginServices } from '@tramita/plugin-api'
import type { Queue } from '#jobs/types'
import type { SocketHub } from '#sockets/hub'
import type { PeerHub } from '#sockets/peers'
import { pluginAudit } from './audit.js'
import { CapabilityTable } from './capabilities.js'
import { pluginCaseFiles } from './case_files.js'
import { pluginDb } from './db.js'
import { LinkModuleTable } from './forms.js'
import { RouteTable } from './http.js'
import { pluginJobs, type Schedule } from './jobs.js'
import { pluginMail } from './mail.js'
import { pluginPeers } from './peers.js'
import { pluginPeople } from './people.js'
import { whenReady } from './ready.js'
import { pluginSettings } from './settings.js'
import { pluginSockets } from './sockets.js'
import { pluginStorage } from './storage.js'
import { pluginTexts, prepareTexts } from './texts.js'
import { pluginTokens } from './tokens.js'
import { pluginUsage } from './usage.js'

export interface FactoryDeps {
  appUrl: string
  queue: () => Pick<Queue, 'enqueue'>
  sockets: () => Pick<SocketHub, 'publish'>
  /** Plugins' program endpoints (a device agent's socket). */
  peers: () => Pick<PeerHub, 'declare' | 'send' | 'disconnect'>
  /** Where a plugin's folder is (its locales). */
  pluginDir(id: string): string
  /** Every enabled plugin's id: a table prefix of one of them is not another's to use. */
  pluginIds: readonly string[]
  /** Is this plugin booted and enabled now (a capability is handed out only then)? */
  live?: (pluginId: string) => boolean
}

/**
 * Builds the services of each plugin's context from the core's parts (plugin-api services.ts) and
 * keeps what plugins declare: routes (mounted by the host), link modules (answered by
 * lookups_controller.ts) and schedules (enqueued by the provider).
 */
export class PluginServiceFactory {
  readonly routes = new RouteTable()
  readonly linkModules = new LinkModuleTable()
  readonly schedules: Schedule[] = []
  readonly capabilities: CapabilityTable

  private constructor(private readonly deps: FactoryDeps) {
    this.capabilities = new CapabilityTable(deps.live ?? (() => true))
  }

  static async create(deps: FactoryDeps): Promise<PluginServiceFactory> {
    await prepareTexts()
    return new PluginServiceFactory(deps)
  }

  /** `ready` is false while plugins register: the data services throw then. */
  forPlugin(id: string, definition: PluginDefinition, ready: () => boolean): PluginServices {
    const guard = <T extends object>(name: string, service: T) => whenReady(id, name, ready, service)
    const storage = pluginStorage(id)
    return {
      http: this.routes.httpFor(id, this.deps.appUrl),
      peers: this.peersOf(id, ready),
      capabilities: this.capabilities.capabilitiesFor(id, ready),
      forms: this.linkModules.formsFor(id),
      caseFiles: guard('caseFiles', pluginCaseFiles()),
      db: guard(
        'db',
        pluginDb(id, () => this.deps.pluginIds)
      ),
      storage: guard('storage', storage),
      people: guard('people', pluginPeople()),
      audit: guard('audit', pluginAudit(id)),
      mail: guard('mail', pluginMail(id)),
      jobs: {
        ...guard('jobs', { enqueue: pluginJobs(id, this.deps.queue, this.schedules, () => !ready()).enqueue }),
        every: pluginJobs(id, this.deps.queue, this.schedules, () => !ready()).every,
      },
      sockets: guard('sockets', pluginSockets(this.deps.sockets)),
      settings: guard('settings', pluginSettings(id, definition.settings ?? {})),
      usage: guard('usage', pluginUsage(id)),
      texts: pluginTexts(id, resolve(this.deps.pluginDir(id))),
      tokens: pluginTokens(),
    }
  }

  /** Endpoints are declared in register (like routes); sending needs the app ready. */
  private peersOf(id: string, ready: () => boolean) {
    const peers = pluginPeers(id, this.deps.peers)
    return {
      endpoint: peers.endpoint,
      ...whenReady(id, 'peers', ready, { send: peers.send, disconnect: peers.disconnect }),
    }
  }

  /** The storage of one plugin, for the routes that answer its files. */
  storageOf(id: string) {
    return pluginStorage(id)
  }
}
