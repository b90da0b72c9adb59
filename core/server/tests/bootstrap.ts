import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Config } from '@japa/runner/types'
import { spec } from '@japa/runner/reporters'
import { summaryReporter } from './summary_reporter.js'
import { runTestChecks } from './helpers/test_checks.js'
import { runMigrations } from '#services/migrations'
import { platform } from '#services/platform'

export const reporters: Config['reporters'] = { activated: ['spec', 'summary'], list: [spec(), summaryReporter] }

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * Every run starts from freshly migrated tables (SQLite file in a temp data dir, or a MariaDB test
 * database) and leaves them empty, through the product's own migrations service: its lock is per
 * database, so suites on other databases of the same MariaDB server may migrate at the same time.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    async () => {
      await runMigrations(app, 'up')
      return async () => void (await runMigrations(app, 'down', true))
    },
  ],
  teardown: [],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  // Browser tests fail on any Content-Security-Policy violation their pages met (tests/e2e/csp.ts).
  if (suite.name === 'e2e') {
    suite.onGroup((group) => group.each.teardown(runTestChecks))
    suite.onTest((test) => test.teardown(runTestChecks))
  }
  if (['functional', 'sockets', 'e2e'].includes(suite.name)) {
    return suite.setup(async () => {
      const stopServer = await testUtils.httpServer().start()
      // As in `tramita serve` without Redis, this process runs the queued jobs (mail, for one).
      const { queue } = platform()
      if (queue.driver === 'memory') await queue.startWorker()
      return async () => {
        if (queue.driver === 'memory') await queue.stopWorker()
        await stopServer()
      }
    })
  }
}
