import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { NOT_ABOUT_THE_DATABASE } from '#tests/helpers/processes'

/**
 * cli/bin/tramita.js registers ts-run in code, not with `--import`. Worker threads do not inherit
 * loader hooks registered that way, so the sandbox's TypeScript worker once failed to load under
 * `tramita serve` and every condition and formula of a save came back as a crash.
 */
test.group('sandbox workers under the CLI', () => {
  test('scripts run when ts-run was imported in code, as tramita.js does', async ({ assert, cleanup }) => {
    const dir = mkdtempSync(join(tmpdir(), 'tramita-workers-'))
    cleanup(() => rmSync(dir, { recursive: true, force: true }))
    const entry = join(dir, 'entry.mjs')
    const scripts = new URL('../../app/services/scripts.ts', import.meta.url).href
    writeFileSync(
      entry,
      [
        `await import(${JSON.stringify(import.meta.resolve('@tramita/ts-run'))})`,
        `const { scriptRunner, closeScripts } = await import(${JSON.stringify(scripts)})`,
        "console.log(JSON.stringify(await scriptRunner().run('a * 2', { a: 21 })))",
        'await closeScripts()',
      ].join('\n')
    )
    // A plain `node entry.mjs`: nothing in execArgv, as when tramita.js starts.
    const run = spawnSync(process.execPath, [entry], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
    assert.equal(run.status, 0, run.stderr)
    const answer = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
    assert.deepInclude(answer, { ok: true, value: 42 }, run.stdout)
  }).skip(...NOT_ABOUT_THE_DATABASE)
})
