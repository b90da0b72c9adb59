import type { PluginContext, PluginRoute } from '@tramita/plugin-api'

/** The sharing area's routes. */
export function sharingRoutes(_ctx: PluginContext): PluginRoute[] {
  return []
}
