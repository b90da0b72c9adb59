import { writeFileSync } from 'node:fs'
import type { NamedReporterContract } from '@japa/runner/types'

/**
 * Writes the run's totals as JSON to TRAMITA_TEST_SUMMARY (when set) so tests/run.mjs can add up
 * every suite into the one `N passed, N failed` line CI reads, without parsing human output. It adds
 * each file's test time in ms (`durations`), from which `TRAMITA_RECORD_WEIGHTS=1 npm test` keeps the
 * weights that balance a sharded suite (tests/helpers/shard.ts).
 */
export const summaryReporter: NamedReporterContract = {
  name: 'summary',
  handler(runner, emitter) {
    const durations: Record<string, number> = {}
    emitter.on('test:end', (test) => {
      const file = test.meta?.fileName
      if (typeof file === 'string') durations[file] = (durations[file] ?? 0) + test.duration
    })
    emitter.on('runner:end', () => {
      const file = process.env.TRAMITA_TEST_SUMMARY
      if (!file) return
      const { aggregates, failedTestsTitles } = runner.getSummary()
      writeFileSync(file, JSON.stringify({ ...aggregates, failedTestsTitles, durations }))
    })
  },
}
