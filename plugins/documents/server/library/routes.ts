import type { PluginContext, PluginRoute } from '@tramita/plugin-api'

/** The library area's routes. */
export function libraryRoutes(_ctx: PluginContext): PluginRoute[] {
  return []
}
