import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import ApiToken from '#models/api_token'
import Role from '#models/role'
import Session from '#models/session'
import User from '#models/user'
import { rowsOf } from '#lib/db_result'
import { hashToken } from '#lib/tokens'
import { sessionAlive, touchSession } from '#services/session_service'

/** API tokens start with this, so the kind of a `token` header is known without a lookup. */
export const API_TOKEN_PREFIX = 'tra_'

/** The spec's roles by power: nobody may act on (impersonate, block, edit) someone of equal or higher rank. */
export const ROLE_RANK: Readonly<Record<string, number>> = { superuser: 4, supervisor: 3, teacher: 2, student: 1 }
/** Roles that administer users. */
export const ADMIN_ROLES = ['superuser', 'supervisor'] as const
/** Roles that design forms and processes (the designer and its routes). */
export const DESIGNER_ROLES = ['superuser', 'supervisor'] as const

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
 * One query finds the credential, its user and the user's roles: every signed-in request runs it.
 */
export async function principalFor(token: string | null): Promise<Principal | null> {
  if (!token || token.length > 200) return null
  const viaApi = token.startsWith(API_TOKEN_PREFIX)
  const found = await credentialWithUser(viaApi ? ApiToken : Session, hashToken(token))
  if (!found || !userMayAct(found.user)) return null
  const { user } = found
  const roles = user.roles.map((r) => r.name)
  const principal = { user, roles, rank: rankOf(roles), session: null, apiToken: null, impersonatorId: null }
  if (viaApi) {
    const apiToken = found.credential as ApiToken
    if ((apiToken.expiresAt && apiToken.expiresAt < DateTime.now()) || !user.apiEnabled) return null
    if (!apiToken.lastUsedAt || DateTime.now().diff(apiToken.lastUsedAt, 'minutes').minutes >= 1) {
      apiToken.lastUsedAt = DateTime.now()
      await apiToken.save()
    }
    return { ...principal, apiToken }
  }
  const session = found.credential as Session
  if (!sessionAlive(session)) return null
  await touchSession(session)
  return { ...principal, session, impersonatorId: session.impersonatorId }
}

type Credential = typeof Session | typeof ApiToken

/** One joined table of the principal's query: its alias and, per column, the row key it comes back as. */
interface Part {
  model: LucidModel
  alias: string
  keys: [key: string, column: string][]
}

function partOf(model: LucidModel, alias: string): Part {
  const keys = [...model.$columnsDefinitions.values()].map(
    (c) => [`${alias}__${c.columnName}`, c.columnName] as [string, string]
  )
  return { model, alias, keys }
}

/** The columns of one table out of a joined row, under their own names. */
function columns(row: Record<string, unknown>, part: Part): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, column] of part.keys) out[column] = row[key]
  return out
}

/**
 * The SQL of the principal's query, compiled once per credential table: knex takes longer to
 * compile ~60 aliased columns than the database takes to answer, and every request asks.
 */
const compiled = new Map<Credential, { sql: string; parts: Part[] }>()

function principalQuery(model: Credential) {
  let query = compiled.get(model)
  if (!query) {
    const parts = [partOf(model, 'c'), partOf(User, 'u'), partOf(Role, 'r')]
    const { sql } = db
      .knexQuery()
      .from(`${model.table} as c`)
      .join('users as u', 'u.id', 'c.user_id')
      .leftJoin('user_roles as ur', 'ur.user_id', 'u.id')
      .leftJoin('roles as r', 'r.id', 'ur.role_id')
      .where('c.token_hash', '')
      .select(parts.flatMap((p) => p.keys.map(([key, column]) => `${p.alias}.${column} as ${key}`)))
      .toSQL()
      .toNative()
    query = { sql, parts }
    compiled.set(model, query)
  }
  return query
}

/** A session or API token by its hash, with its user and the user's roles (one row per role). */
async function credentialWithUser(
  model: Credential,
  tokenHash: string
): Promise<{ credential: Session | ApiToken; user: User } | null> {
  const { sql, parts } = principalQuery(model)
  const [credentialPart, userPart, rolePart] = parts as [Part, Part, Part]
  const rows = rowsOf(await db.rawQuery(sql, [tokenHash]))
  if (rows.length === 0) return null
  const credential = model.$createFromAdapterResult(columns(rows[0]!, credentialPart))!
  const user = User.$createFromAdapterResult(columns(rows[0]!, userPart))!
  const roles = rows
    .filter((row) => row.r__id !== null)
    .map((row) => Role.$createFromAdapterResult(columns(row, rolePart))!)
  user.$setRelated('roles', roles)
  return { credential, user }
}
