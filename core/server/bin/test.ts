process.env.NODE_ENV = 'test'

import { prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { fileURLToPath } from 'node:url'
import { createIgnitor } from './ignite.js'

// A real SMTP listener in the test process receives the app's mail (unless a test run sets its own).
if (!process.env.SMTP_HOST) {
  const { startSmtpListener } = await import('../tests/helpers/smtp_listener.js')
  process.env.SMTP_PORT = String(await startSmtpListener())
  process.env.SMTP_HOST = '127.0.0.1'
  process.env.SMTP_SECURITY = 'none'
}
const suites = process.argv.slice(2)
// The test plugin (app/plugins/enabled.ts) for every suite but the CLI's, which lists the real ones.
if (!suites.includes('cli')) process.env.TRAMITA_FIXTURE_PLUGINS ??= '1'
// A real slapd for directory sign-in, for the suites that sign in over HTTP.
if (!process.env.LDAP_URL && (suites.includes('functional') || suites.includes('e2e'))) {
  const { slapdInstalled, startLdapServer } = await import('../tests/helpers/ldap_server.js')
  if (!slapdInstalled()) throw new Error('The directory tests need slapd: apt-get install slapd (.ci/run does)')
  const ldap = await startLdapServer()
  process.env.LDAP_URL = ldap.url
  process.env.LDAP_USER_DN = ldap.userDn
}

createIgnitor()
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')
    processCLIArgs(process.argv.splice(2))
    const shard = process.env.TRAMITA_SHARD
    const { shardFiles } = await import('../tests/helpers/shard.js')
    const { enabledPluginPatterns } = await import('../tests/helpers/enabled_plugin_files.js')
    const { enabledPluginIds } = await import('#plugins/enabled')
    const enabled = enabledPluginIds()
    configure({
      ...app.rcFile.tests,
      suites: app.rcFile.tests.suites.map((suite) => {
        const files = enabledPluginPatterns([suite.files].flat() as string[], enabled)
        return { ...suite, files: shard ? shardFiles(files, shard, fileURLToPath(app.appRoot)) : files }
      }),
      ...config,
      setup: runnerHooks.setup,
      teardown: [...runnerHooks.teardown, () => app.terminate()],
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
