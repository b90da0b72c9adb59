/**
 * Reliability part `load`: 200 simulated people start cases through both app nodes of a cluster (2 app
 * nodes, 2 workers, private MariaDB and Redis, s3rver) while node B and worker A are killed and restarted
 * and Redis and MariaDB restart; then every save, and every case's notice mail, is accounted for
 * (tests/reliability/load.ts). Bounded (CI): 20 s of load.
 * Long: 90 s.
 */
import { Cluster } from '../cluster.ts'
import { runLoad } from '../load.ts'
import { startMailListener } from '../mail_listener.ts'

export async function run({ bounded, log }) {
  const seconds = bounded ? 20 : 90
  const faults = bounded
    ? [
        { at: 0.3, what: 'kill-app' },
        { at: 0.4, what: 'kill-worker' },
        { at: 0.5, what: 'restart-redis' },
        { at: 0.75, what: 'restart-mariadb' },
      ]
    : [
        { at: 0.2, what: 'kill-app' },
        { at: 0.3, what: 'kill-worker' },
        { at: 0.45, what: 'restart-redis' },
        { at: 0.7, what: 'restart-mariadb' },
      ]
  // Every case's step is announced by mail: to a real SMTP listener in this process.
  const mail = await startMailListener()
  // Two hundred people sign in from one address within a second.
  const cluster = await Cluster.start({ env: { AUTH_RATE_PER_MINUTE: '100000', ...mail.env }, log }).catch(
    async (error) => {
      await mail.close()
      throw error
    }
  )
  try {
    const report = await runLoad(cluster, { people: 200, seconds, faults, mail, log })
    log(
      `${report.sent} saves sent in ${seconds} s: ${report.done} done (${report.savesPerSecond.toFixed(1)}/s), ` +
        `${report.refused} refused with a reason, ${report.unavailable} told the database was down, ` +
        `${report.lost} without an answer (${report.unknownStored} of the last two stored); ` +
        `p50 ${report.p50} ms, p99 ${report.p99} ms, slowest ${report.slowest} ms; statuses ${JSON.stringify(report.statuses)}`
    )
    log('✔ every save accounted for: done stored once, refused stored nothing, none stored twice, none hung')
    log('✔ every stored case announced: each notice recorded once, mailed at least once, repeats within the sends cut')
    return { passed: 1, failed: 0 }
  } catch (error) {
    log(`✖ ${error?.stack ?? error}`)
    for (const node of [...cluster.apps, ...cluster.workers]) {
      // What it warned of or failed at (pino level 40 and above), each message once with its count.
      const seen = new Map()
      for (const line of node.output().split('\n')) {
        if (!/"level":[4-6]\d/.test(line)) continue
        const text = (/"msg":"([^"]*)/.exec(line)?.[1] ?? line).slice(0, 300)
        seen.set(text, (seen.get(text) ?? 0) + 1)
      }
      const lines = [...seen].map(([text, n]) => `${n}× ${text}`)
      log(`── ${node.name}: ${lines.length} distinct warnings and errors ──\n${lines.slice(0, 20).join('\n')}`)
    }
    return { passed: 0, failed: 1 }
  } finally {
    await cluster.stop()
    await mail.close()
  }
}
