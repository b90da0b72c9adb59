/** Who a step can be given to: users, roles and areas as the server lists them (the runtime's calls). */
import { callJson as call } from '@tramita/web/json-call'

export interface Person {
  id: number
  label: string
}

export interface Directory {
  users: Person[]
  roles: Person[]
  areas: Person[]
}

const rowsOf = (data: unknown): Record<string, unknown>[] =>
  Array.isArray(data) ? data : Object.values((data ?? {}) as Record<string, Record<string, unknown>>)

export async function loadDirectory(): Promise<Directory> {
  const [users, roles, areas] = await Promise.all([
    call<{ users: { id: number; first_name: string; last_name: string }[] }>('GET', '/data/allusers'),
    call<unknown>('GET', '/data/users/roles'),
    call<unknown>('GET', '/data/areas'),
  ])
  const named = (data: unknown) => rowsOf(data).map((row) => ({ id: Number(row.id), label: String(row.name ?? '') }))
  return {
    users: (users.users ?? []).map((u) => ({ id: u.id, label: `${u.first_name} ${u.last_name}`.trim() })),
    roles: named(roles),
    areas: named(areas),
  }
}
