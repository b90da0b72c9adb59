import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { isEmail, type ProcessStep } from '@tramita/contract'
import type { Principal } from '#services/auth/principal'

/** Who a task is for, as stored on the task and written in the activity log. */
export interface ResolvedAssignee {
  type: 'user' | 'rol' | 'area' | 'external'
  id: number | null
  email: string | null
  text: string
  /** Taken from a field's value (the log says assign_parameter / approve_parameter). */
  fromField: boolean
}

/**
 * The first user id or e-mail a field's value names: a users picker holds options `{code, label}`;
 * a number or text field holds the id or the address itself.
 */
function fromValue(value: unknown): { id?: number; email?: string } | null {
  let first = Array.isArray(value) ? value[0] : value
  if (typeof first === 'object' && first !== null && 'code' in first) first = (first as { code: unknown }).code
  if (typeof first === 'number' && Number.isInteger(first) && first > 0) return { id: first }
  if (typeof first === 'string') {
    const text = first.trim()
    if (/^[1-9]\d{0,9}$/.test(text)) return { id: Number(text) }
    if (isEmail(text)) return { email: text.toLowerCase() }
  }
  return null
}

/** The user id a field's value names (a users picker's first option, or an id), or null. */
export function userNamedBy(values: Record<string, unknown>, field: string): number | null {
  return fromValue(values[field])?.id ?? null
}

export interface FourEyesTask {
  four_eyes: boolean | number
  assigned_by: number | null
}

/**
 * The four-eyes rule (issue 17): a task of a four-eyes step may not be done by the case's starter nor
 * by whoever did the previous step (the user whose save assigned it). Gives the refusal's message key,
 * or null when `userId` may do it. The inbox leaves such tasks out with the same test (inbox.ts).
 */
export function fourEyesBar(
  task: FourEyesTask,
  starter: number | null,
  userId: number | null
): 'engine.four_eyes_starter' | 'engine.four_eyes_previous' | null {
  if (!task.four_eyes || userId === null) return null
  if (userId === starter) return 'engine.four_eyes_starter'
  if (userId === task.assigned_by) return 'engine.four_eyes_previous'
  return null
}

/** The step's assignee for this case, or null when its field names nobody (or nobody who exists). */
export async function resolveAssignee(
  trx: TransactionClientContract,
  step: ProcessStep,
  values: Record<string, unknown>
): Promise<ResolvedAssignee | null> {
  const assign = step.assign
  let kind = assign.type
  let id = assign.id ?? null
  let email = assign.email?.toLowerCase() ?? null
  const fromField = kind === 'field'
  if (fromField) {
    const named = fromValue(values[assign.field ?? ''])
    if (!named) return null
    kind = named.id ? 'user' : 'external'
    id = named.id ?? null
    email = named.email ?? null
  }
  if (kind === 'external') return { type: 'external', id: null, email, text: assign.name || email || '', fromField }
  const query = trx.knexQuery().where('id', id!)
  const row = (await (kind === 'user'
    ? query.from('users').first('first_name', 'last_name')
    : query.from(kind === 'rol' ? 'roles' : 'areas').first('name'))) as Record<string, string> | undefined
  if (!row) return null
  const text = kind === 'user' ? `${row.first_name} ${row.last_name}`.trim() : row.name!
  return { type: kind as 'user' | 'rol' | 'area', id, email: null, text, fromField }
}

/** Role and area ids of a signed-in user, for role and area tasks. */
export async function membershipsOf(principal: Principal): Promise<{ roles: number[]; areas: number[] }> {
  const areas = await db.from('user_areas').where('user_id', principal.user.id).select('area_id')
  return { roles: principal.user.roles.map((r) => r.id), areas: areas.map((a: { area_id: number }) => a.area_id) }
}

export interface TaskAssignee {
  assignee_type: string
  assignee_id: number | null
  claimed_by: number | null
}

/**
 * May this signed-in user do the task? Its user; a member of its role or area unless another member
 * claimed it. External tasks are done through their link's token, not by a signed-in user.
 */
export function mayDo(
  task: TaskAssignee,
  principal: Principal,
  memberships: { roles: number[]; areas: number[] }
): boolean {
  const me = principal.user.id
  if (task.claimed_by !== null && task.claimed_by !== me) return false
  switch (task.assignee_type) {
    case 'user':
      return task.assignee_id === me
    case 'rol':
      return memberships.roles.includes(task.assignee_id ?? -1)
    case 'area':
      return memberships.areas.includes(task.assignee_id ?? -1)
    default:
      return false
  }
}

/**
 * May this signed-in user start a case of the process (case new)? Every signed-in user when the
 * process names no starters; otherwise a listed user or a member of a listed role or area.
 */
export function mayStart(
  process: { starters: { users: number[]; roles: number[]; areas: number[] } },
  principal: Principal,
  memberships: { roles: number[]; areas: number[] }
): boolean {
  const { users, roles, areas } = process.starters
  if (users.length + roles.length + areas.length === 0) return true
  if (users.includes(principal.user.id)) return true
  return memberships.roles.some((r) => roles.includes(r)) || memberships.areas.some((a) => areas.includes(a))
}
