import { DateTime } from 'luxon'
import Session from '#models/session'
import { affectedRows } from '#lib/db_result'
import { hashToken, newToken } from '#lib/tokens'

/**
 * Server-side sessions with opaque tokens (256 bits; only the hash is stored). A session ends when
 * revoked, after SESSION_IDLE_MINUTES without a request, or SESSION_MAX_HOURS after sign-in.
 */
export const SESSION_IDLE_MINUTES = Number(process.env.SESSION_IDLE_MINUTES) || 30
export const SESSION_MAX_HOURS = 12
/** last_seen_at is written at most this often, so reads do not turn every request into a write. */
const TOUCH_EVERY_SECONDS = 30

export interface SessionMeta {
  ip?: string | null
  userAgent?: string | null
  impersonatorId?: number | null
}

export async function openSession(userId: number, meta: SessionMeta = {}) {
  const token = newToken()
  const now = DateTime.now()
  const session = await Session.create({
    tokenHash: hashToken(token),
    userId,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    impersonatorId: meta.impersonatorId ?? null,
    lastSeenAt: now,
    expiresAt: now.plus({ hours: SESSION_MAX_HOURS }),
    revokedAt: null,
  })
  return { token, session }
}

/** Not revoked, not expired, not idle too long (in epoch ms: every request asks, luxon math is slow). */
export function sessionAlive(session: Session, now = Date.now()): boolean {
  return (
    !session.revokedAt &&
    session.expiresAt.toMillis() > now &&
    session.lastSeenAt.toMillis() + SESSION_IDLE_MINUTES * 60_000 > now
  )
}

/** The live session for a token, or null when unknown, revoked, expired or idle too long. */
export async function findSession(token: string | null | undefined): Promise<Session | null> {
  if (!token || token.length > 200) return null
  const session = await Session.findBy('tokenHash', hashToken(token))
  return session && sessionAlive(session) ? session : null
}

/** Records activity on a session (the inactivity clock restarts); `force` writes even if just written. */
export async function touchSession(session: Session, force = false): Promise<void> {
  if (!force && Date.now() - session.lastSeenAt.toMillis() < TOUCH_EVERY_SECONDS * 1000) return
  session.lastSeenAt = DateTime.now()
  await session.save()
}

/** Seconds left before the session closes for inactivity. */
export function idleSecondsLeft(session: Session): number {
  const idleEnd = session.lastSeenAt.plus({ minutes: SESSION_IDLE_MINUTES })
  const end = idleEnd < session.expiresAt ? idleEnd : session.expiresAt
  return Math.max(0, Math.floor(end.diff(DateTime.now(), 'seconds').seconds))
}

export async function revokeSession(session: Session): Promise<void> {
  session.revokedAt = DateTime.now()
  await session.save()
}

/** Ends every open session of a user, but the one kept (a password change keeps the caller's). */
export async function revokeUserSessions(userId: number, keepSessionId?: number): Promise<number> {
  const query = Session.query().where('user_id', userId).whereNull('revoked_at')
  if (keepSessionId !== undefined) query.whereNot('id', keepSessionId)
  const result = await query.update({ revokedAt: DateTime.now().toSQL({ includeOffset: false }) })
  return affectedRows(result)
}
