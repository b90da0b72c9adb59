import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Documents: folders, sharing, trash, retention and OCR (spec 001 sections 2-4). */
export default definePlugin({
  id: 'documents',
  version: '0.1.0',
  description: 'Documents: folders, sharing, trash, retention and OCR (spec 001 sections 2-4).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // No nav entry until its web screens exist (a nav entry needs one: core/plugin-api).
})
