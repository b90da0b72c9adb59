import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import env from '#start/env'
import { platform } from '#services/platform'

export interface Check {
  ok: boolean
  driver: string
  detail?: string
}

async function guarded(driver: string, fn: () => Promise<Check>): Promise<Check> {
  try {
    return await fn()
  } catch (error) {
    return { ok: false, driver, detail: error instanceof Error ? error.message : String(error) }
  }
}

/** Database, queue, storage and socket status, each checked for real (a query, a ping, a write). */
export async function healthReport() {
  const { queue, sockets } = platform()
  const [database, queueCheck, storage, socketCheck] = await Promise.all([
    guarded(db.primaryConnectionName, async () => {
      await db.rawQuery('select 1')
      return { ok: true, driver: db.connection().dialect.name }
    }),
    guarded(queue.driver, () => queue.health()),
    guarded(env.get('DRIVE_DISK', 'fs'), async () => {
      const disk = drive.use()
      const key = `.health/${randomUUID()}`
      await disk.put(key, 'ok')
      const back = await disk.get(key)
      await disk.delete(key)
      return { ok: back === 'ok', driver: env.get('DRIVE_DISK', 'fs') }
    }),
    guarded(sockets.driver, () => sockets.health()),
  ])
  const checks = { database, queue: queueCheck, storage, sockets: socketCheck }
  const ok = Object.values(checks).every((c) => c.ok)
  return { status: ok ? ('ok' as const) : ('degraded' as const), checks }
}
