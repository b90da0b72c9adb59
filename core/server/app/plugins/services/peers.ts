import type { PluginPeerEndpoint, PluginPeers } from '@tramita/plugin-api'
import type { PeerHub } from '#sockets/peers'
import { routePath } from './http.js'

/**
 * plugin-api peers: a plugin's program endpoints on the core's PeerHub. Peer ids are kept apart per
 * plugin (the hub holds `<plugin>:<id>`), so a plugin reaches only its own programs.
 */
export function pluginPeers(
  pluginId: string,
  hub: () => Pick<PeerHub, 'declare' | 'send' | 'disconnect'>
): PluginPeers {
  const own = (peerId: string) => `${pluginId}:${peerId}`
  const strip = (peerId: string) => peerId.slice(pluginId.length + 1)
  return {
    endpoint(endpoint: PluginPeerEndpoint) {
      const path = routePath(pluginId, endpoint.path)
      if (!path.startsWith(`/api/${pluginId}/`)) {
        throw new Error(`plugin "${pluginId}": socket "${endpoint.path}" must be under /api/${pluginId}`)
      }
      hub().declare(pluginId, path, {
        path,
        admit: async (token, ip, header) => {
          const answer = await endpoint.admit(token, ip, header)
          return 'refuse' in answer ? answer : { peerId: own(answer.peerId) }
        },
        opened: endpoint.opened && ((peerId) => endpoint.opened!(strip(peerId))),
        received: (peerId, message) => endpoint.received(strip(peerId), message),
        closed: endpoint.closed && ((peerId) => endpoint.closed!(strip(peerId))),
      })
    },
    send: (peerId, message) => hub().send(own(peerId), message),
    disconnect: (peerId, code, reason) => hub().disconnect(own(peerId), code, reason),
  }
}
