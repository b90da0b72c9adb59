/**
 * Reliability part `cluster`: 2 app nodes and 2 workers (real `tramita serve` / `tramita worker`
 * processes) on private MariaDB and Redis servers and s3rver (tests/reliability/cluster.ts),
 * and the checks that nothing depends on being the only process (cluster_checks.ts), races across
 * nodes (concurrency_checks.ts), the ownership table through both nodes (ownership_checks.ts) and a
 * worker killed mid-job (job_fault_checks.ts). The bounded form (CI) runs the same checks: most take well
 * under a second, the ownership table about 25 s, and the killed worker's jobs about 60 s to come back
 * (the mail's claim, the app's own timing).
 */
import { Cluster } from '../cluster.ts'
import * as checks from '../cluster_checks.ts'
import * as concurrency from '../concurrency_checks.ts'
import * as faults from '../job_fault_checks.ts'
import { startMailListener } from '../mail_listener.ts'
import * as ownership from '../ownership_checks.ts'

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
  // A real SMTP listener in this process: the nodes' mail goes there (job_fault_checks.ts counts it).
  const mail = await startMailListener()
  const cluster = await Cluster.start({
    // Sign-ins: the ownership table signs in eight callers on top of the other checks' (30 a minute by default).
    // DB_TIMEOUT_MS, S3_TIMEOUT_MS: the frozen MariaDB and silent S3 checks wait for them, so they are
    // shorter than the defaults.
    env: {
      PUSH_NOTIFY_PER_MINUTE: String(checks.PUSH_LIMIT),
      AUTH_RATE_PER_MINUTE: '300',
      DB_TIMEOUT_MS: String(checks.DB_TIMEOUT_MS),
      S3_TIMEOUT_MS: String(checks.S3_TIMEOUT_MS),
      ...mail.env,
    },
    log,
  }).catch(async (error) => {
    await mail.close()
    throw error
  })
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
    await check('someone else’s object behind every route with an id: allowed or refused as the table says', () =>
      ownership.ownershipAcrossNodes(cluster, log)
    )
    await check('an hourly job runs once with two workers, even after the queue dropped it', () =>
      checks.hourlyJobOnce(cluster, log)
    )
    // After the hourly check, which waits for an idle queue: these leave jobs retrying for a minute.
    let crash
    await check('a worker SIGKILLed inside mail sends and an OCR run is restarted', async () => {
      crash = await faults.crashWorkerMidJobs(cluster, mail, log)
    })
    if (crash) {
      await check('after the kill every mail arrives, each effect once, duplicates within the sends cut', () =>
        faults.mailsAfterCrash(cluster, mail, crash, log)
      )
      await check('the scan the killed worker was OCR-ing ends OCR’d: each page once, billed once, found', () =>
        faults.ocrAfterCrash(cluster, crash, log)
      )
      await check('one retention code confirmed through two nodes at once: one acts, the other is refused', () =>
        faults.retentionCodeAcrossNodes(cluster, mail, crash)
      )
    }
    // Last: a restarted Redis (which keeps nothing here) forgets the queue the check above reads.
    if (scene) {
      await check('MariaDB frozen: each node answers 503 instead of waiting, and serves once it runs again', () =>
        checks.whileMariaDBFrozen(cluster, scene, log)
      )
      await check('S3 silent: a file read answers 503 instead of waiting, and the file is served once it answers', () =>
        checks.whileS3Silent(cluster, scene, log)
      )
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
    await mail.close()
  }
  return { passed, failed }
}
