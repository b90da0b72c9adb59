import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import type Session from '#models/session'
import User from '#models/user'
import { hashToken } from '#lib/tokens'
import { findSession, touchSession } from '#services/session_service'

/** API tokens start with this, so the kind of a `token` header is known without a lookup. */
export const API_TOKEN_PREFIX = 'tra_'

/** The spec's roles by power: nobody may act on (impersonate, block, edit) someone of equal or higher rank. */
export const ROLE_RANK: Readonly<Record<string, number>> = { superuser: 4, supervisor: 3, teacher: 2, student: 1 }
/** Roles that administer users. */
export const ADMIN_ROLES = ['superuser', 'supervisor'] as const

export interface Principal {
  user: User
  roles: string[]
  rank: number
  session: Session | null
  apiToken: ApiToken | null
  /** The administrator behind an impersonation session. */
  impersonatorId: number | null
}

/** Does the caller hold a role that administers users (and may look at and correct any case)? */
export function isAdmin(principal: Pick<Principal, 'roles'>): boolean {
  return ADMIN_ROLES.some((role) => principal.roles.includes(role))
}

export function rankOf(roles: string[]): number {
  return roles.reduce((best, role) => Math.max(best, ROLE_RANK[role] ?? 0), 0)
}

/** A user who may act at all: enabled and not blocked. */
export function userMayAct(user: User | null): user is User {
  return !!user && user.enabled && !user.blocked
}

/**
 * Who a `token` header speaks for: a live session of an enabled, unblocked user, or an unexpired
 * API token of a user whose API use is enabled. Anything else is null (the caller answers 401).
 */
export async function principalFor(token: string | null): Promise<Principal | null> {
  if (!token) return null
  if (token.startsWith(API_TOKEN_PREFIX)) {
    if (token.length > 200) return null
    const apiToken = await ApiToken.findBy('tokenHash', hashToken(token))
    if (!apiToken || (apiToken.expiresAt && apiToken.expiresAt < DateTime.now())) return null
    const user = await User.query().where('id', apiToken.userId).preload('roles').first()
    if (!userMayAct(user) || !user.apiEnabled) return null
    const roles = user.roles.map((r) => r.name)
    if (!apiToken.lastUsedAt || DateTime.now().diff(apiToken.lastUsedAt, 'minutes').minutes >= 1) {
      apiToken.lastUsedAt = DateTime.now()
      await apiToken.save()
    }
    return { user, roles, rank: rankOf(roles), session: null, apiToken, impersonatorId: null }
  }
  const session = await findSession(token)
  if (!session) return null
  const user = await User.query().where('id', session.userId).preload('roles').first()
  if (!userMayAct(user)) return null
  await touchSession(session)
  const roles = user.roles.map((r) => r.name)
  return { user, roles, rank: rankOf(roles), session, apiToken: null, impersonatorId: session.impersonatorId }
}
