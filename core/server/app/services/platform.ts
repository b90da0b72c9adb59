import type { Queue } from '#jobs/types'
import type { SocketHub } from '#sockets/hub'
import type { PeerHub } from '#sockets/peers'
import type { PluginHost } from '#plugins/host'
import type { OutboxRelay } from '#services/job_outbox'
import type { PluginServiceFactory } from '#plugins/services/factory'

/**
 * The process-wide parts the provider builds at start: the job queue, the socket hub, the plugin
 * host and the job outbox's relay. None holds state another node needs (queue and fan-out go
 * through Redis when configured).
 */
export interface Platform {
  queue: Queue
  sockets: SocketHub
  /** Plugins' program endpoints (device agents). */
  peers: PeerHub
  plugins: PluginHost
  /** Moves staged jobs (job_outbox) to the queue. */
  outbox: OutboxRelay
  /** What plugins declared through their services (routes, schedules); absent in tests that build a platform by hand. */
  pluginServices?: PluginServiceFactory
}

let current: Platform | undefined

export function setPlatform(platform: Platform | undefined): void {
  current = platform
}

export function platform(): Platform {
  if (!current) throw new Error('The platform is not started yet')
  return current
}
