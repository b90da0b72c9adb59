import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import env from '#start/env'
import { platform } from '#services/platform'
import { OUTBOX_LAG_MS, outboxBacklog } from '#services/job_outbox'
import { rateLimitStore } from '#services/rate_limits'
import { antivirusHealth } from '#services/uploads/antivirus'
import { type Check, guarded } from '#lib/health_check'

/** Jobs staged by saves and not yet queued: behind when one has waited over a minute (Redis away). */
async function outboxCheck(): Promise<Check> {
  const { waiting, oldestMs } = await outboxBacklog()
  const ok = oldestMs < OUTBOX_LAG_MS
  const detail = `${waiting} jobs waiting to be queued${ok ? '' : `, the oldest for ${Math.round(oldestMs / 1000)} s`}`
  return { ok, driver: 'database', detail }
}

/** Where sign-in counters go: the database stands in for Redis while it is unreachable. */
function limiterCheck(): Check {
  const store = rateLimitStore()
  if (store === 'redis' || !env.get('REDIS_URL')) return { ok: true, driver: store }
  return { ok: false, driver: store, detail: 'Redis unreachable: counting in the database meanwhile' }
}

/**
 * Database, queue, storage, socket, job outbox, limiter and antivirus status, each checked for real
 * (a query, a ping, a write) and within CHECK_MS; `degraded` lists the parts whose check failed.
 */
export async function healthReport() {
  const { queue, sockets } = platform()
  const [database, queueCheck, storage, socketCheck, outbox, antivirus] = await Promise.all([
    guarded(db.primaryConnectionName, async () => {
      await db.rawQuery('select 1')
      return { ok: true, driver: db.connection().dialect.name }
    }),
    guarded(queue.driver, () => queue.health()),
    guarded(env.get('DRIVE_DISK', 'fs'), async () => {
      const disk = drive.use()
      // At the top, not in a folder of probes: s3rver (the cluster tests' S3) removes an emptied folder
      // while another node's probe is writing into it. (The fs disk only unlinks the file.)
      const key = `.health-${randomUUID()}`
      await disk.put(key, 'ok')
      const back = await disk.get(key)
      await disk.delete(key)
      return { ok: back === 'ok', driver: env.get('DRIVE_DISK', 'fs') }
    }),
    guarded(sockets.driver, () => sockets.health()),
    guarded('database', outboxCheck),
    guarded('clamav', antivirusHealth),
  ])
  const checks = {
    database,
    queue: queueCheck,
    storage,
    sockets: socketCheck,
    outbox,
    limiter: limiterCheck(),
    antivirus,
  }
  const degraded = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name]) => name)
  return { status: degraded.length === 0 ? ('ok' as const) : ('degraded' as const), degraded, checks }
}
