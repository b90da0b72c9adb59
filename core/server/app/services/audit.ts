import type { HttpContext } from '@adonisjs/core/http'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import AuditLog from '#models/audit_log'
import { wellFormed } from '#lib/unicode'
// ctx.principal and ctx.call are declared by these middlewares: a program that reaches this file
// without them (the CLI's, through the plugin services) needs them named.
import type {} from '#middleware/auth_middleware'
import type {} from '#middleware/call_contract_middleware'

export interface AuditEntry {
  actorId: number | null
  action: string
  subjectType?: string
  subjectId?: string | number
  data?: Record<string, unknown>
  ip?: string | null
}

/**
 * Appends to the audit log (sign-ins, administration, impersonation). Entries are never updated. With
 * `client` (a transaction), the entry is written with the change it records, or not at all.
 */
export async function audit(entry: AuditEntry, client?: QueryClientContract): Promise<void> {
  await AuditLog.create(
    {
      actorId: entry.actorId,
      action: entry.action,
      subjectType: entry.subjectType ?? null,
      subjectId: entry.subjectId === undefined ? null : String(entry.subjectId),
      // Callers' texts (a refused sign-in's user name) may hold lone surrogates, which MariaDB's JSON refuses.
      data: entry.data ? wellFormed(entry.data) : null,
      ip: entry.ip ?? null,
    },
    client ? { client } : undefined
  )
}

/** An entry for what the signed-in caller did (actor and address from the request). */
export async function auditRequest(
  ctx: HttpContext,
  action: string,
  subject?: { type: string; id: string | number },
  data?: Record<string, unknown>,
  actorId: number | null = ctx.principal?.user.id ?? null
): Promise<void> {
  await audit({ actorId, action, subjectType: subject?.type, subjectId: subject?.id, data, ip: ctx.request.ip() })
}
