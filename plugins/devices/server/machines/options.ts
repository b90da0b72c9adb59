import { hasRole, type PluginContext, type PluginPrincipal } from '@tramita/plugin-api'
import type { MachineOption } from '../../shared/devices.js'
import type { Availability } from '../../shared/protocol.js'
import { leaseAlive, licensedIds, type AgentRecord } from '../agents/agents.js'
import type { MachineRecord } from './report.js'

/** What a machine can do now: what its agent last said, if that agent is connected and licensed. */
export function effectiveAvailability(
  machine: Pick<MachineRecord, 'availability'>,
  agent: AgentRecord | undefined,
  licensed: Set<number> | null
): Availability {
  const on = agent && !agent.revoked_at && leaseAlive(agent) && (licensed === null || licensed.has(Number(agent.id)))
  return on ? machine.availability : 'not available'
}

export function traysOf(machine: Pick<MachineRecord, 'trays'>): string[] {
  try {
    const trays = JSON.parse(machine.trays ?? '[]') as unknown
    return Array.isArray(trays) ? trays.filter((t): t is string => typeof t === 'string') : []
  } catch {
    return []
  }
}

/**
 * The machines a person's forms may use (spec 000 §7 all_machines; §3 Machine): those they are assigned
 * to, every one for a superuser.
 */
export async function machineOptions(
  ctx: Pick<PluginContext, 'db' | 'settings'>,
  who: PluginPrincipal
): Promise<MachineOption[]> {
  const query = ctx.db.table('machines').orderBy('name')
  if (!hasRole(who, ['superuser'])) {
    query.whereIn('id', ctx.db.table('machine_people').select('machine_id').where('user_id', who.userId))
  }
  const machines = (await query) as MachineRecord[]
  const agents = await agentsById(ctx, machines)
  const licensed = await licensedIds(ctx)
  return machines.map((m) => {
    const agent = agents.get(Number(m.agent_id))
    const availability = effectiveAvailability(m, agent, licensed)
    return {
      token: m.token,
      name: m.name,
      ubication: m.location ?? '',
      model: m.model ?? '',
      ip: m.ip ?? '',
      trays: traysOf(m).map((name) => ({ name })),
      availability,
      // A pad is the agent's: usable while the agent is (an off agent's machine is 'not available').
      can_sign: availability !== 'not available' && Boolean(Number(agent?.can_sign ?? 0)),
    }
  })
}

export async function agentsById(ctx: Pick<PluginContext, 'db'>, machines: Pick<MachineRecord, 'agent_id'>[]) {
  const ids = [...new Set(machines.map((m) => m.agent_id).filter((id): id is number => id !== null))]
  const rows = ids.length ? ((await ctx.db.table('agents').whereIn('id', ids)) as AgentRecord[]) : []
  return new Map(rows.map((a) => [Number(a.id), a]))
}
