import { fileURLToPath } from 'node:url'
import { definePlugin } from '@tramita/plugin-api'

/** Assessment: question banks, questions, exam formats and grading (spec 001 sections 2-5). */
export default definePlugin({
  id: 'exams',
  version: '0.1.0',
  description: 'Assessment: question banks, questions, exam formats and grading (spec 001 sections 2-5).',
  migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // No nav entry until its web screens exist (a nav entry needs one: core/plugin-api).
})
