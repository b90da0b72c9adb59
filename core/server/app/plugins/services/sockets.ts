import type { PluginSockets } from '@tramita/plugin-api'
import type { SocketHub } from '#sockets/hub'

/** /ws messages through the core's hub (fanned out over Redis when configured). */
export function pluginSockets(hub: () => Pick<SocketHub, 'publish'>): PluginSockets {
  return { publish: (to, message) => hub().publish(to, message) }
}
