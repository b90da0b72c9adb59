import { createHash, randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import Session from '#models/session'

/** Sessions last this long without activity (issue 4 makes it configurable). */
export const SESSION_IDLE_MINUTES = 30
export const SESSION_MAX_HOURS = 12

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Opens a server-side session and returns its opaque token (256 bits); only the hash is stored. */
export async function openSession(userId: number, meta: { ip?: string | null; userAgent?: string | null } = {}) {
  const token = randomBytes(32).toString('base64url')
  const now = DateTime.now()
  const session = await Session.create({
    tokenHash: hashToken(token),
    userId,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    lastSeenAt: now,
    expiresAt: now.plus({ hours: SESSION_MAX_HOURS }),
    revokedAt: null,
  })
  return { token, session }
}

/** The live session for a token, or null when unknown, revoked, expired or idle too long. */
export async function findSession(token: string | null | undefined): Promise<Session | null> {
  if (!token || token.length > 200) return null
  const session = await Session.findBy('tokenHash', hashToken(token))
  if (!session || session.revokedAt) return null
  const now = DateTime.now()
  if (session.expiresAt < now || session.lastSeenAt.plus({ minutes: SESSION_IDLE_MINUTES }) < now) return null
  return session
}

export async function revokeSession(session: Session): Promise<void> {
  session.revokedAt = DateTime.now()
  await session.save()
}
