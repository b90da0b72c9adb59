import { writeFileSync } from 'node:fs'
import type { NamedReporterContract } from '@japa/runner/types'

/**
 * Writes the run's totals as JSON to TRAMITA_TEST_SUMMARY (when set) so tests/run.mjs can add up
 * every suite into the one `N passed, N failed` line CI reads, without parsing human output.
 */
export const summaryReporter: NamedReporterContract = {
  name: 'summary',
  handler(runner, emitter) {
    emitter.on('runner:end', () => {
      const file = process.env.TRAMITA_TEST_SUMMARY
      if (!file) return
      const { aggregates, failedTestsTitles } = runner.getSummary()
      writeFileSync(file, JSON.stringify({ ...aggregates, failedTestsTitles }))
    })
  },
}
