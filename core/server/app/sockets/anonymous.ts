import { rateLimit } from '#services/rate_limits'
import type { AnonymousOptions } from './hub.js'

/**
 * The bounds of anonymous sockets (public-link visitors waiting for fileReady). A school behind one
 * NAT address shares them, hence room for a classroom; each socket is small and closes when idle.
 */
export const ANONYMOUS_SOCKETS_PER_IP = 20
export const ANONYMOUS_CONNECTS_PER_MINUTE = 60
export const ANONYMOUS_IDLE_MS = 3 * 60_000

/**
 * The hub's anonymous terms: the attempts of an address are counted by the core's limiter (Redis
 * when configured, else the database: shared by every node either way).
 */
export function anonymousSocketTerms(
  limits: { perIp?: number; perMinute?: number; idleMs?: number } = {}
): AnonymousOptions {
  const perMinute = limits.perMinute ?? ANONYMOUS_CONNECTS_PER_MINUTE
  const attempts = rateLimit({ requests: perMinute, duration: '1 min' })
  return {
    maxPerIp: limits.perIp ?? ANONYMOUS_SOCKETS_PER_IP,
    idleMs: limits.idleMs ?? ANONYMOUS_IDLE_MS,
    admit: async (ip) => (await attempts.increment(`ws_anon:${ip}`)).consumed <= perMinute,
  }
}
