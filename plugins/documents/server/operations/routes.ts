import type { PluginContext, PluginRoute } from '@tramita/plugin-api'

/** The operations area's routes. */
export function operationsRoutes(_ctx: PluginContext): PluginRoute[] {
  return []
}
