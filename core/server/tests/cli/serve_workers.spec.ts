import { execFileSync } from 'node:child_process'
import { test } from '@japa/runner'
import { TRAMITA_BIN, freePort, runCli, startProcess } from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'
import { waitUntil } from '#tests/helpers/wait'

/** The HTTP processes a primary runs (its children). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return [] // pgrep exits 1 when there is none
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Any HTTP answer (a busy machine's health check may say degraded, 503: the process still serves). */
async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/health`)
    return true
  } catch {
    return false
  }
}

test.group('tramita serve --workers', () => {
  test('two HTTP processes on one port; one that dies is restarted; SIGTERM stops them all', async ({
    assert,
    cleanup,
  }) => {
    const db = childDatabase('cli-workers')
    cleanup(() => db.drop())
    const env = { ...db.env, QUEUE_PREFIX: `w${process.pid}${Date.now()}` }
    const port = await freePort()
    const primary = startProcess(
      [TRAMITA_BIN, 'serve', '--workers', '2', '--migrate', '--port', String(port), '--host', '127.0.0.1'],
      env
    )
    cleanup(async () => void (await primary.stop('SIGKILL')))
    const pid = primary.child.pid!
    await waitUntil(
      async () => primary.output().includes('2 HTTP processes listening'),
      90_000,
      () => `two HTTP processes:\n${primary.output()}`,
      200
    )
    const first = childrenOf(pid)
    assert.lengthOf(first, 2, primary.output())
    // Only the first process prepared the new database; both serve the same port.
    const answered = await Promise.all(Array.from({ length: 20 }, () => answers(port)))
    assert.isTrue(answered.every(Boolean), primary.output())

    process.kill(first[0]!, 'SIGKILL')
    await waitUntil(
      async () => primary.output().includes('restarting in 500 ms'),
      10_000,
      () => `a restart:\n${primary.output()}`,
      100
    )
    await waitUntil(
      async () => {
        const now = childrenOf(pid)
        return now.length === 2 && !now.includes(first[0]!)
      },
      10_000,
      () => `a new process beside ${first[1]}:\n${primary.output()}`,
      100
    )
    assert.isTrue(await answers(port))
    const second = childrenOf(pid)

    const code = await primary.stop('SIGTERM')
    assert.equal(code, 0, primary.output())
    assert.include(primary.output(), 'stopped')
    assert.isFalse(second.some(alive), `left running: ${second.filter(alive)}`)
  })
    .timeout(180_000)
    .skip(!process.env.REDIS_URL, 'needs Redis (runs in the cli-mariadb-redis step)')

  test('more than one HTTP process without Redis is refused with the reason', async ({ assert }) => {
    const port = await freePort()
    const run = await runCli(['serve', '--workers', '2', '--port', String(port)], { REDIS_URL: '' })
    assert.equal(run.code, 1)
    assert.include(run.output, '--workers above 1 needs REDIS_URL')
    const bad = await runCli(['serve', '--workers', 'lots', '--port', String(port)], { REDIS_URL: '' })
    assert.equal(bad.code, 1)
    assert.include(bad.output, '--workers must be an integer from 1 to 256')
  })
})
