import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { DEVICES_ROUTES, type DevicesRouteName, type MachineRow } from '../../shared/devices.js'
import { agentName, createAgent, licensedIds, listAgents, renameAgent, revokeAgent } from '../agents/agents.js'
import { agentsById, effectiveAvailability, traysOf } from '../machines/options.js'
import type { MachineRecord } from '../machines/report.js'
import { tellFailed } from '../jobs/results.js'

/** Who administers agents and machines (spec 001 §2). */
const ADMINS = { roles: ['superuser'] as const }

function who(req: PluginRequest) {
  return req.principal!
}

function id(value: string | undefined): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0) throw new PluginFailure('devices.machine_not_found', 404)
  return n
}

function optionalText(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.length > max) throw new PluginFailure('devices.machine_field_invalid')
  return value.trim()
}

async function machineRows(ctx: PluginContext, machineId?: number): Promise<MachineRow[]> {
  const query = ctx.db.table('machines').orderBy('name')
  if (machineId !== undefined) query.where('id', machineId)
  const machines = (await query) as MachineRecord[]
  const agents = await agentsById(ctx, machines)
  const licensed = await licensedIds(ctx)
  const links = machines.length
    ? ((await ctx.db.table('machine_people').whereIn(
        'machine_id',
        machines.map((m) => m.id)
      )) as { machine_id: number; user_id: number }[])
    : []
  const people = await ctx.people.byIds([...new Set(links.map((l) => Number(l.user_id)))])
  return machines.map((m) => ({
    id: Number(m.id),
    agent_id: m.agent_id === null ? null : Number(m.agent_id),
    agent_name: agents.get(Number(m.agent_id))?.name ?? null,
    name: m.name,
    brand: m.brand ?? '',
    model: m.model ?? '',
    location: m.location ?? '',
    ip: m.ip ?? '',
    token: m.token,
    availability: effectiveAvailability(m, agents.get(Number(m.agent_id)), licensed),
    trays: traysOf(m),
    people: links
      .filter((l) => Number(l.machine_id) === Number(m.id))
      .map((l) => ({ id: Number(l.user_id), name: people.get(Number(l.user_id))?.name ?? '' })),
  }))
}

/** Agents (made with a token shown once, renamed, revoked) and machines (described, assigned to people). */
export function adminRoutes(ctx: PluginContext): PluginRoute[] {
  const route = (name: DevicesRouteName, handle: PluginRoute['handle']): PluginRoute => ({
    method: DEVICES_ROUTES[name].method,
    path: DEVICES_ROUTES[name].path,
    auth: ADMINS,
    handle,
  })
  return [
    route('agents', async () => ({ agents: await listAgents(ctx.db, undefined, await licensedIds(ctx)) })),
    route('createAgent', (req) => createAgent(ctx, who(req), agentName(req.field('name')))),
    route('updateAgent', async (req) => ({
      agent: await renameAgent(ctx, who(req), id(req.params.id), agentName(req.field('name'))),
    })),
    route('revokeAgent', async (req) => ({
      agent: await revokeAgent(ctx, who(req), id(req.params.id), (jobs) => tellFailed(ctx, jobs)),
    })),
    route('machines', async () => ({ machines: await machineRows(ctx) })),
    route('updateMachine', async (req) => {
      const machineId = id(req.params.id)
      const name = optionalText(req.field('name'), 150)
      if (name === '') throw new PluginFailure('devices.machine_field_invalid')
      const values = {
        name,
        brand: optionalText(req.field('brand'), 100),
        model: optionalText(req.field('model'), 100),
        location: optionalText(req.field('location'), 200),
      }
      const people = req.json<unknown>('people')
      if (people !== undefined && (!Array.isArray(people) || people.some((p) => !Number.isSafeInteger(p)))) {
        throw new PluginFailure('devices.machine_field_invalid')
      }
      const ids = [...new Set((people as number[] | undefined) ?? [])]
      if (ids.length > 0 && (await ctx.people.byIds(ids)).size !== ids.length) {
        throw new PluginFailure('devices.person_not_found', 404)
      }
      await ctx.db.transaction(async (trx) => {
        const machine = await trx.table('machines').where('id', machineId).forUpdate().first()
        if (!machine) throw new PluginFailure('devices.machine_not_found', 404)
        const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))
        await trx
          .table('machines')
          .where('id', machineId)
          .update({ ...changes, updated_at: new Date() })
        if (people !== undefined) {
          await trx.table('machine_people').where('machine_id', machineId).delete()
          for (const userId of ids) await trx.table('machine_people').insert({ machine_id: machineId, user_id: userId })
        }
      })
      await ctx.audit.record(
        who(req),
        'machine_updated',
        { type: 'machine', id: machineId },
        { ...values, people: ids }
      )
      return { machine: (await machineRows(ctx, machineId))[0] }
    }),
  ]
}
