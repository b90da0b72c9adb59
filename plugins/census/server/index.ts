import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Censuses: forms answered by a population, active or inactive (spec 001 sections 2, 4). */
export default definePlugin({
  id: 'census',
  version: '0.1.0',
  description: 'Censuses: forms answered by a population, active or inactive (spec 001 sections 2, 4).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  nav: [{ path: '/census', label: 'home.nav.census', roles: ['superuser', 'supervisor'] }],
})
