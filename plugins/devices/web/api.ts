/**
 * The administration screens' calls, on the route table the server half shares (shared/devices.ts), and
 * the people a machine may be assigned to (the core's selector list, as the documents' share dialog reads it).
 */
import { call, type Fields } from '@tramita/web/api'
import { DEVICES_ROUTES, type AgentRow, type DevicesRouteName, type MachineRow } from '../shared/devices.js'

/** One route of the table, its `:id` filled; answers the call's `data`. */
async function send<T>(name: DevicesRouteName, fields: Fields = {}, id?: number): Promise<T> {
  const route = DEVICES_ROUTES[name]
  const path = id === undefined ? route.path : route.path.replace(':id', String(id))
  return (await call<T>(route.method, path, fields)).data as T
}

export async function agents(): Promise<AgentRow[]> {
  return (await send<{ agents: AgentRow[] }>('agents')).agents
}

/** A new agent and its token: the whole token is in this answer only. */
export function createAgent(name: string): Promise<{ agent: AgentRow; token: string }> {
  return send('createAgent', { name })
}

export async function renameAgent(id: number, name: string): Promise<AgentRow> {
  return (await send<{ agent: AgentRow }>('updateAgent', { name }, id)).agent
}

/** The agent stops at once; its unfinished jobs fail. */
export async function revokeAgent(id: number): Promise<AgentRow> {
  return (await send<{ agent: AgentRow }>('revokeAgent', {}, id)).agent
}

export async function machines(): Promise<MachineRow[]> {
  return (await send<{ machines: MachineRow[] }>('machines')).machines
}

export interface MachineChanges {
  name: string
  brand: string
  model: string
  location: string
  /** The ids of the people who may use it (all of them: the list replaces the old one). */
  people: number[]
}

export async function updateMachine(id: number, changes: MachineChanges): Promise<MachineRow> {
  return (await send<{ machine: MachineRow }>('updateMachine', { ...changes }, id)).machine
}

export interface Person {
  id: number
  name: string
}

/** Every enabled user (GET /data/allusers, the core's list for selectors), by name. */
export async function people(): Promise<Person[]> {
  const body = await call<{ users: { id: number; first_name: string; last_name: string }[] }>('GET', '/data/allusers')
  return (body.data?.users ?? []).map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() }))
}
