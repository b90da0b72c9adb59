import { fileURLToPath } from 'node:url'
import { definePlugin, type PluginContext, type PluginRoute } from '@tramita/plugin-api'
import { libraryRoutes } from './library/routes.js'
import { sharingRoutes } from './sharing/routes.js'
import { operationsRoutes } from './operations/routes.js'
import { indexRoutes } from './indexes/routes.js'
import { retentionRoutes } from './retention/routes.js'
import { ocrRoutes } from './ocr/routes.js'
import { ocrCapability } from './ocr/capability.js'
import { documentsJobs, scheduleJobs } from './jobs.js'
import { documentsCommands } from './cli/commands.js'
import { DOCUMENTS_SETTINGS_DECLARATION } from '../shared/settings.js'
import { syncRoutes } from './sync/routes.js'
import { listenToAgents } from './sync/jobs.js'

/**
 * Documents (spec 001 §2–§9): the library (folders, files, versions, trash, labels, comments), sharing
 * and public links, operations (merge, zip, copy, rename, search), indexes (typed metadata, the forms'
 * select_indexing) and the CLI. It reaches the core only
 * through its context (core/plugin-api): each area below builds its routes from the services it uses.
 */
export default definePlugin({
  id: 'documents',
  version: '0.2.0',
  description: 'Documents: my documents, folders, versions, labels, sharing, public links, trash and search.',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  settings: DOCUMENTS_SETTINGS_DECLARATION,
  jobs: documentsJobs,
  // The screens (web/index.ts, the package's `./screens`): my documents is for every signed-in user.
  web: 'web/index.ts',
  // The indexes' screen for every signed-in user, as its routes are (changing one: its creator or a superuser).
  nav: [
    { path: '/documents', label: 'documents.screens.mine' },
    { path: '/documents/indexes', label: 'documents.screens.index_admin' },
    // Retention schedules (TRD) and their assignments: administrators, as the routes allow.
    { path: '/documents/retention', label: 'documents.screens.retention', roles: ['superuser', 'supervisor'] },
  ],
  commands: documentsCommands,
  register(ctx: PluginContext) {
    const routes: PluginRoute[] = [
      ...libraryRoutes(ctx),
      ...sharingRoutes(ctx),
      ...operationsRoutes(ctx),
      ...indexRoutes(ctx),
      ...retentionRoutes(ctx),
      ...ocrRoutes(ctx),
      ...syncRoutes(ctx),
    ]
    for (const route of routes) ctx.http.route(route)
    scheduleJobs(ctx)
    // The OCR engine for other plugins' files (a device's scan): `documents.ocr`.
    ctx.capabilities.provide('ocr', ocrCapability(ctx))
  },
  boot(ctx: PluginContext) {
    // Synchronized folders hear their agents (the devices plugin's `devices.files`, when it is there).
    listenToAgents(ctx)
  },
})
