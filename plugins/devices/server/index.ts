import { fileURLToPath } from 'node:url'
import { definePlugin, type PluginContext } from '@tramita/plugin-api'
import { DEVICES_SETTINGS_DECLARATION } from '../shared/settings.js'
import { agentEndpoint } from './agents/connection.js'
import { adminRoutes } from './admin/routes.js'
import { jobRoutes } from './jobs/routes.js'

/**
 * Devices (issue 21; spec 000 §7, 001 §2, §4, §7, §8): agents on the computers that have the printers
 * and scanners (agent/, `tramita agent`), their machines, and the forms' print and scan calls. The
 * agents hold a socket to the server (ctx.peers); jobs are rows first and messages after, so an agent
 * that was away gets what it missed. It reaches the core only through its context.
 */
export default definePlugin({
  id: 'devices',
  version: '0.2.0',
  description: 'Scanners and printers through local agents and machines (spec 001 sections 2, 4, 7).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  settings: DEVICES_SETTINGS_DECLARATION,
  register(ctx: PluginContext) {
    ctx.peers.endpoint(agentEndpoint(ctx))
    for (const route of [...jobRoutes(ctx), ...adminRoutes(ctx)]) ctx.http.route(route)
  },
})
