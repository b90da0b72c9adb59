import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Censuses: forms answered by a population, active or inactive (spec 001 sections 2, 4). */
export default definePlugin({
  id: 'census',
  version: '0.1.0',
  description: 'Censuses: forms answered by a population, active or inactive (spec 001 sections 2, 4).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // No nav entry until its web screens exist (a nav entry needs one: core/plugin-api).
})
