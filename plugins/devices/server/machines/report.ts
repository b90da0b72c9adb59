import { randomBytes } from 'node:crypto'
import { isUniqueViolation, type PluginDb } from '@tramita/plugin-api'
import type { Availability, MachineReport } from '../../shared/protocol.js'

/**
 * Machines as their agent reports them. A machine is matched by its agent and uid: what the device
 * says of itself (address, trays, what it can do and whether it is ready) is updated at every report;
 * its name, brand, model and location are the report's only when it first appears, and the
 * administrator's from then on. A machine the agent no longer reports stays, not available (its
 * assigned people are kept for when it returns).
 */

export interface MachineRecord {
  id: number
  agent_id: number | null
  uid: string | null
  name: string
  brand: string | null
  model: string | null
  location: string | null
  ip: string | null
  token: string
  availability: Availability
  can_print: number | boolean
  can_scan: number | boolean
  trays: string | null
  report: string | null
}

/** What a device can do now, by which of its sides is ready (spec 001 §5). */
export function availabilityOf(report: Pick<MachineReport, 'printer' | 'scanner'>): Availability {
  const prints = report.printer?.ready === true
  const scans = report.scanner?.ready === true
  if (prints && scans) return 'available'
  if (prints) return 'print only'
  if (scans) return 'scan only'
  return 'not available'
}

/** The machine's token forms name it by (spec 000 §3 Machine.token): random, never a database id. */
export function newMachineToken(): string {
  return randomBytes(16).toString('hex')
}

export async function recordMachines(db: PluginDb, agentId: number, reports: MachineReport[]): Promise<void> {
  const now = new Date()
  const known = (await db.table('machines').where('agent_id', agentId).select('id', 'uid')) as Pick<
    MachineRecord,
    'id' | 'uid'
  >[]
  const byUid = new Map(known.map((m) => [m.uid, Number(m.id)]))
  for (const report of reports) {
    const values = {
      ip: report.ip,
      can_print: report.printer !== null,
      can_scan: report.scanner !== null,
      trays: JSON.stringify(report.printer?.trays ?? []),
      availability: availabilityOf(report),
      report: JSON.stringify(report),
      reported_at: now,
      updated_at: now,
    }
    const id = byUid.get(report.uid)
    if (id !== undefined) {
      await db.table('machines').where('id', id).update(values)
      continue
    }
    try {
      await db.table('machines').insert({
        agent_id: agentId,
        uid: report.uid,
        name: report.name || report.model || report.uid,
        brand: report.brand,
        model: report.model,
        location: '',
        token: newMachineToken(),
        created_at: now,
        ...values,
      })
    } catch (error) {
      // The same report handled twice at once (a reconnect racing a heartbeat): the other wrote it.
      if (!isUniqueViolation(error)) throw error
      await db.table('machines').where('agent_id', agentId).where('uid', report.uid).update(values)
    }
  }
  const reported = new Set(reports.map((r) => r.uid))
  const gone = known.filter((m) => !reported.has(m.uid ?? '')).map((m) => Number(m.id))
  if (gone.length > 0) {
    await db.table('machines').whereIn('id', gone).update({ availability: 'not available', updated_at: now })
  }
}
