/**
 * Reliability part `cluster`: 2 app nodes and 2 workers (real `tramita serve` / `tramita worker`
 * processes) on private MariaDB and Redis servers and s3rver (tests/reliability/cluster.ts),
 * and the checks that nothing depends on being the only process (cluster_checks.ts). The bounded form
 * (CI) runs the same checks: they are short already.
 */
import { Cluster } from '../cluster.ts'
import * as checks from '../cluster_checks.ts'
import * as concurrency from '../concurrency_checks.ts'

export async function run({ log }) {
  let passed = 0
  let failed = 0
  const check = async (name, fn) => {
    const at = Date.now()
    try {
      await fn()
      passed++
      log(`✔ ${name} (${Date.now() - at} ms)`)
    } catch (error) {
      failed++
      log(`✖ ${name}: ${error?.stack ?? error}`)
    }
  }
  await check('the documented topology (deploy/docker-compose.yml) names every service', async () =>
    checks.composeTopology()
  )
  const started = Date.now()
  const cluster = await Cluster.start({ env: { PUSH_NOTIFY_PER_MINUTE: String(checks.PUSH_LIMIT) }, log })
  log(`cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  try {
    let scene
    await check('the scene: a published form and a case started through node A', async () => {
      scene = await checks.setScene(cluster)
    })
    if (scene) {
      await check('a socket event published on node A reaches its user on node B', () =>
        checks.socketAcrossNodes(cluster, scene)
      )
      await check('a rate limit counts the requests sent to both nodes', () =>
        checks.rateLimitAcrossNodes(cluster, scene)
      )
      await check('a file uploaded through node A is read through node B (S3)', () =>
        checks.fileAcrossNodes(cluster, scene)
      )
    }
    if (scene) {
      await check('two members claim one step through two nodes: one wins, the other is told', () =>
        concurrency.claimAcrossNodes(cluster, scene.admin)
      )
    }
    await check('guesses at a link password through both nodes: no more than the limit are checked', () =>
      concurrency.linkGuessesAcrossNodes(cluster)
    )
    await check('a session opened on node A works on node B, and ends on both', () =>
      checks.sessionAcrossNodes(cluster)
    )
    await check('an hourly job runs once with two workers, even after the queue dropped it', () =>
      checks.hourlyJobOnce(cluster, log)
    )
    // Last: a restarted Redis (which keeps nothing here) forgets the queue the check above reads.
    if (scene) {
      await check('after Redis restarts, an event still crosses from node A to node B', () =>
        checks.afterRedisRestart(cluster, scene)
      )
      await check('after MariaDB crashes and restarts, both nodes serve signed-in requests', () =>
        checks.afterMariaDBRestart(cluster, scene)
      )
    }
  } finally {
    if (failed > 0) {
      for (const node of [...cluster.apps, ...cluster.workers]) {
        log(`── ${node.name} output (last 3000 characters) ──\n${node.output().slice(-3000)}`)
      }
    }
    await cluster.stop()
  }
  return { passed, failed }
}
