import { fileURLToPath } from 'node:url'
import { definePlugin, type PluginContext } from '@tramita/plugin-api'
import { DEVICES_SETTINGS_DECLARATION } from '../shared/settings.js'
import { agentEndpoint } from './agents/connection.js'
import { adminRoutes } from './admin/routes.js'
import { jobRoutes } from './jobs/routes.js'
import { bindOcrScan, ocrScanJobs } from './jobs/ocr_scan.js'
import { bindExpiry, expiryJobs } from './jobs/expire.js'
import { signatureRoutes } from './signatures/routes.js'
import { filesRoutes } from './files/routes.js'
import { filesCapability } from './files/capability.js'

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
  jobs: [...ocrScanJobs, ...expiryJobs],
  // The administration screens (web/index.ts, the package's `./screens`): superusers, as the routes allow.
  web: 'web/index.ts',
  nav: [
    { path: '/devices/agents', label: 'devices.screens.agents', roles: ['superuser'] },
    { path: '/devices/machines', label: 'devices.screens.machines', roles: ['superuser'] },
  ],
  register(ctx: PluginContext) {
    ctx.peers.endpoint(agentEndpoint(ctx))
    for (const route of [...jobRoutes(ctx), ...adminRoutes(ctx), ...signatureRoutes(ctx)]) ctx.http.route(route)
    // Synchronized folders' files on the agents, for the documents plugin: `devices.files`.
    for (const route of filesRoutes(ctx)) ctx.http.route(route)
    ctx.capabilities.provide('files', filesCapability(ctx))
    bindOcrScan(ctx)
    bindExpiry(ctx)
  },
})
