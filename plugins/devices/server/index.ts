import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Scanners and printers through local agents and machines (spec 001 sections 2, 4, 7). */
export default definePlugin({
  id: 'devices',
  version: '0.1.0',
  description: 'Scanners and printers through local agents and machines (spec 001 sections 2, 4, 7).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // No nav entry until its web screens exist (a nav entry needs one: core/plugin-api).
})
