import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Grading sheets (fichas): groupers, weighted columns and grades (spec 001 sections 3, 5). */
export default definePlugin({
  id: 'fichas',
  version: '0.1.0',
  description: 'Grading sheets (fichas): groupers, weighted columns and grades (spec 001 sections 3, 5).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // No nav entry until its web screens exist (a nav entry needs one: core/plugin-api).
})
