import type { DateTime } from 'luxon'
import Area from '#models/area'
import Role from '#models/role'
import User from '#models/user'
import { ROLE_RANK, rankOf, type Principal } from '#services/auth/principal'

/** What administrators and selectors read about a user (spec 001 §3 and 000 §3's user object). */
export function profileOf(user: User) {
  const date = (d: DateTime | null) => (d ? d.toISODate() : null)
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    photo: user.photo,
    document_type: user.documentType,
    document_number: user.documentNumber,
    mobile: user.mobile,
    gender: user.gender,
    birth_date: date(user.birthDate),
    birth_place: user.birthPlace,
    residence: user.residence,
    stratum: user.stratum,
    profession: user.profession,
    parent_id: user.parentId,
    enabled: user.enabled,
    blocked: user.blocked,
    api_enabled: user.apiEnabled,
    required_tfa: user.requiredTfa,
    two_fa: user.twoFa,
    auth_source: user.authSource,
    last_login_at: user.lastLoginAt?.toISO() ?? null,
    areas: user.$preloaded.areas ? user.areas.map((a: Area) => a.id) : undefined,
    roles: user.$preloaded.roles ? user.roles.map((r: Role) => ({ id: r.id, name: r.name })) : undefined,
  }
}

/**
 * May `actor` administer `target`? Only someone of lower rank, except that a superuser may manage
 * other superusers; nobody blocks, closes or demotes themselves through these routes.
 */
export function mayAdminister(actor: Principal, target: User, targetRoles: string[]): boolean {
  if (actor.user.id === target.id) return false
  const targetRank = rankOf(targetRoles)
  return targetRank < actor.rank || (actor.rank === ROLE_RANK.superuser && targetRank === actor.rank)
}

/** Impersonation is stricter: only someone of strictly lower rank, never oneself. */
export function mayImpersonate(actor: Principal, targetRoles: string[]): boolean {
  return rankOf(targetRoles) < actor.rank
}

/** Roles an actor may hand out: below their own rank (a superuser may give any). */
export function mayGrantRole(actor: Principal, role: Role): boolean {
  return actor.rank === ROLE_RANK.superuser || (ROLE_RANK[role.name] ?? 0) < actor.rank
}

export interface TreeNode {
  id: number
  username: string
  first_name: string
  last_name: string
  children: TreeNode[]
}

/** The hierarchical user tree (parent_id), roots first; a cycle in the data cannot loop forever. */
export function buildTree(users: Pick<User, 'id' | 'username' | 'firstName' | 'lastName' | 'parentId'>[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>()
  const parents = new Map<number, number | null>()
  for (const u of users) {
    nodes.set(u.id, { id: u.id, username: u.username, first_name: u.firstName, last_name: u.lastName, children: [] })
    parents.set(u.id, u.parentId)
  }
  // A user whose chain of parents comes back to them is shown as a root, which breaks the cycle.
  const inCycle = (id: number) => {
    const seen = new Set<number>()
    let current = parents.get(id)
    while (current !== null && current !== undefined && nodes.has(current)) {
      if (current === id) return true
      if (seen.has(current)) return false
      seen.add(current)
      current = parents.get(current)
    }
    return false
  }
  const roots: TreeNode[] = []
  for (const u of users) {
    const parent = u.parentId !== null ? nodes.get(u.parentId) : undefined
    if (parent && !inCycle(u.id)) parent.children.push(nodes.get(u.id)!)
    else roots.push(nodes.get(u.id)!)
  }
  return roots
}
