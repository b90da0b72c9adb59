import { definePlugin } from '@tramita/plugin-api'

/** The action engine and its handler registry (spec 000 section 4, 001 section 4). */
export default definePlugin({
  id: 'actions',
  version: '0.1.0',
  description: 'The action engine and its handler registry (spec 000 section 4, 001 section 4).',
})
