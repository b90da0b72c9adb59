import type { PluginPrincipal } from '@tramita/plugin-api'
import type { Principal } from '#services/auth/principal'

/**
 * The core's principal behind each plugin principal the core made (mount.ts): a service that asks the
 * core's own rules (caseFiles) gets it back, and an object a plugin made up itself gets nothing.
 */
const behind = new WeakMap<PluginPrincipal, Principal>()

export function remember(who: PluginPrincipal, principal: Principal): PluginPrincipal {
  behind.set(who, principal)
  return who
}

export function principalBehind(who: PluginPrincipal): Principal | undefined {
  return behind.get(who)
}
