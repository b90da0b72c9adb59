import { randomUUID } from 'node:crypto'
import { hasRole, PluginFailure, type PluginContext, type PluginPrincipal } from '@tramita/plugin-api'
import type { JobOrder } from '../../shared/protocol.js'
import { leaseAlive, licensedIds, peerIdOf, type AgentRecord } from '../agents/agents.js'
import type { MachineRecord } from '../machines/report.js'

/**
 * A job for a machine: the asker may use the machine (assigned to it, or a superuser), it can do what
 * is asked, and its agent is connected and licensed; then the job is written first and sent after, so
 * an agent that misses the message gets the job at its next hello (at least once; the agent makes
 * sure a printer never gets it twice).
 */

export type OrderCtx = Pick<PluginContext, 'db' | 'peers' | 'settings'>

export interface Reachable {
  machine: MachineRecord
  agent: AgentRecord
}

export async function mayUse(ctx: Pick<PluginContext, 'db'>, who: PluginPrincipal, machineId: number) {
  if (hasRole(who, ['superuser'])) return true
  const row = await ctx.db.table('machine_people').where('machine_id', machineId).where('user_id', who.userId).first()
  return row !== null
}

export async function reachableMachine(
  ctx: OrderCtx,
  who: PluginPrincipal,
  token: string | undefined,
  side: 'print' | 'scan' | 'sign'
): Promise<Reachable> {
  const machine = token
    ? ((await ctx.db.table('machines').where('token', token.slice(0, 64)).first()) as MachineRecord | null)
    : null
  // Someone else's machine reads as no machine: a token reveals nothing.
  if (!machine || !(await mayUse(ctx, who, Number(machine.id))))
    throw new PluginFailure('devices.machine_not_found', 404)
  if (side === 'print' ? !machine.can_print : side === 'scan' && !machine.can_scan)
    throw new PluginFailure(`devices.machine_cannot_${side}`)
  const agent =
    machine.agent_id === null
      ? null
      : ((await ctx.db.table('agents').where('id', machine.agent_id).first()) as AgentRecord | null)
  const licensed = await licensedIds(ctx)
  const on = agent && !agent.revoked_at && leaseAlive(agent) && (licensed === null || licensed.has(Number(agent.id)))
  if (!on) throw new PluginFailure('devices.error.agent_off', 409)
  // A signing pad is the agent's (its sign command), beside whatever the machine prints or scans.
  if (side === 'sign') {
    if (!agent.can_sign) throw new PluginFailure('devices.machine_cannot_sign', 409)
    return { machine, agent }
  }
  const ready = side === 'print' ? ['available', 'print only'] : ['available', 'scan only']
  if (!ready.includes(machine.availability)) throw new PluginFailure('devices.machine_not_ready', 409)
  return { machine, agent: agent! }
}

export interface NewJob {
  kind: JobOrder['kind']
  userId: number
  formKey?: string | null
  field?: string | null
  tokenForm?: string | null
  files?: { storage_key: string; name: string; mime: string; size: number }[]
}

/** Writes the job (with its files), then sends it to the agent's connection. Returns its id. */
export async function placeJob(
  ctx: OrderCtx,
  target: Reachable,
  job: NewJob,
  order: (id: string) => JobOrder
): Promise<string> {
  const id = randomUUID()
  const now = new Date()
  const made = order(id)
  await ctx.db.transaction(async (trx) => {
    await trx.table('jobs').insert({
      id,
      kind: job.kind,
      agent_id: target.agent.id,
      machine_id: target.machine.id,
      user_id: job.userId,
      form_key: job.formKey ?? null,
      field: job.field ?? null,
      token_form: job.tokenForm ?? null,
      orders: JSON.stringify(made),
      status: 'sent',
      created_at: now,
      updated_at: now,
    })
    for (const [n, file] of (job.files ?? []).entries()) await trx.table('job_files').insert({ job_id: id, n, ...file })
  })
  if (target.agent.session) {
    await ctx.peers.send(peerIdOf(Number(target.agent.id), target.agent.session), { type: 'jobs', jobs: [made] })
  }
  return id
}
