import type { PluginCapabilities } from '@tramita/plugin-api'

const NAME = /^[a-z][a-z0-9_-]{0,39}$/

/**
 * plugin-api capabilities: services plugins offer each other by name. A service is handed out only
 * while its provider is live (a plugin that failed to boot, or is disabled, offers nothing).
 */
export class CapabilityTable {
  private readonly offers = new Map<string, { pluginId: string; service: object }>()

  constructor(private readonly live: (pluginId: string) => boolean) {}

  capabilitiesFor(pluginId: string, ready: () => boolean): PluginCapabilities {
    return {
      provide: (name, service) => {
        if (ready()) throw new Error(`plugin "${pluginId}": capabilities are offered in register`)
        if (!NAME.test(name)) throw new Error(`plugin "${pluginId}": invalid capability name "${name.slice(0, 40)}"`)
        const full = `${pluginId}.${name}`
        if (this.offers.has(full)) throw new Error(`plugin "${pluginId}": capability "${full}" offered twice`)
        this.offers.set(full, { pluginId, service })
      },
      use: <T extends object>(fullName: string) => {
        const offer = this.offers.get(fullName)
        return offer && offer.pluginId !== pluginId && this.live(offer.pluginId) ? (offer.service as T) : undefined
      },
    }
  }
}
