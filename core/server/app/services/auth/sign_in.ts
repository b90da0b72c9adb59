import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import User from '#models/user'
import { verifyDecoy, verifyPassword } from '#lib/password'
import { hashToken, newToken } from '#lib/tokens'
import { audit } from '#services/audit'
import { verifyCaptcha } from '#services/auth/captcha'
import { decryptDirectoryPassword, directoryBind } from '#services/auth/directory'
import { API_TOKEN_PREFIX, userMayAct } from '#services/auth/principal'
import {
  captchaRequired,
  clearAccountFailures,
  failureCounts,
  overCeiling,
  recordFailure,
} from '#services/auth/throttle'
import { findTicket, startTicket } from '#services/auth/two_factor'
import { openSession, revokeSession, findSession } from '#services/session_service'
import { firstChars } from '#lib/unicode'

/**
 * PUT /data/login (spec 000 §7): user, password (the SHA-256 prehash, or RSA ciphertext for a
 * directory user), captcha when required, two_factor (the verified ticket) on the retry, and
 * type_login ('normal' opens a session, 'api' issues an API token to users allowed the API).
 *
 * Every refusal before the password is known right says the same thing ('login_incorrect') and
 * costs the same (an argon2 verify runs for unknown names too).
 */
export interface SignInInput {
  user: string
  password: string
  captcha?: unknown
  twoFactor?: unknown
  typeLogin: 'normal' | 'api'
  ip: string
  userAgent: string | null
  /** The token the browser held before (rotated out at sign-in). */
  previousToken: string | null
}

export type SignInResult =
  | {
      kind: 'refused'
      reason: 'login_incorrect' | 'captcha_required' | 'too_many_attempts' | 'too_many_attempts_address'
      captchaRequired: boolean
      status: number
    }
  | {
      kind: 'refused'
      reason: 'account_locked' | 'user_blocked' | 'api_disabled'
      captchaRequired: boolean
      status: number
    }
  | {
      kind: 'second_factor'
      user: User
      ticket: string
      /** Wrong codes already counted in this second step's window. */
      failures: number
      enrol?: { secret: string; uri: string; qr: string }
    }
  | { kind: 'signed_in'; user: User; token: string }

async function passwordMatches(user: User | null, password: string): Promise<boolean> {
  if (!user) return verifyDecoy(password)
  if (user.authSource === 'ldap') {
    const plain = await decryptDirectoryPassword(password)
    if (plain === null) return verifyDecoy(password)
    return directoryBind(user.username, plain)
  }
  if (!user.passwordHash) return verifyDecoy(password)
  return verifyPassword(user.passwordHash, password)
}

export async function signIn(input: SignInInput): Promise<SignInResult> {
  const name = input.user.trim()
  const counts = await failureCounts(name, input.ip)
  const needCaptcha = captchaRequired(counts)
  const ceiling = overCeiling(counts)
  if (ceiling) {
    const reason = ceiling === 'account' ? 'too_many_attempts' : 'too_many_attempts_address'
    return { kind: 'refused', reason, captchaRequired: true, status: 429 }
  }
  if (needCaptcha && !(await verifyCaptcha(input.captcha, counts.address))) {
    return { kind: 'refused', reason: 'captcha_required', captchaRequired: true, status: 400 }
  }

  const user = await User.query().where('username', name).first()
  if (!(await passwordMatches(user, input.password)) || !user) {
    const after = await recordFailure(name, input.ip)
    await audit({
      actorId: user?.id ?? null,
      action: 'login.failed',
      data: { user: firstChars(name, 100) },
      ip: input.ip,
    })
    return { kind: 'refused', reason: 'login_incorrect', captchaRequired: captchaRequired(after), status: 400 }
  }
  // From here the caller knows the password, so the account's own state may be told.
  if (!userMayAct(user)) return { kind: 'refused', reason: 'user_blocked', captchaRequired: needCaptcha, status: 403 }
  if (user.lockedUntil && user.lockedUntil > DateTime.now()) {
    return { kind: 'refused', reason: 'account_locked', captchaRequired: true, status: 423 }
  }
  if (input.typeLogin === 'api' && !user.apiEnabled) {
    return { kind: 'refused', reason: 'api_disabled', captchaRequired: needCaptcha, status: 403 }
  }

  if (user.twoFa || user.requiredTfa) {
    const ticket = await findTicket(input.twoFactor)
    if (!ticket || ticket.userId !== user.id || !ticket.verified) {
      const started = await startTicket(user, input.ip)
      return { kind: 'second_factor', user, ticket: started.ticket, failures: started.failures, enrol: started.enrol }
    }
    await ticket.delete()
  }

  await clearAccountFailures(name)
  user.lastLoginAt = DateTime.now()
  await user.save()
  if (input.typeLogin === 'api') {
    const token = newToken(API_TOKEN_PREFIX)
    await ApiToken.create({
      tokenHash: hashToken(token),
      userId: user.id,
      name: 'login',
      lastUsedAt: null,
      expiresAt: null,
    })
    await audit({ actorId: user.id, action: 'login.api', ip: input.ip })
    return { kind: 'signed_in', user, token }
  }
  // Rotation: the session the browser held (if any) ends; the new token is the only one that works.
  const previous = await findSession(input.previousToken)
  if (previous) await revokeSession(previous)
  const { token } = await openSession(user.id, { ip: input.ip, userAgent: input.userAgent })
  await audit({ actorId: user.id, action: 'login', ip: input.ip })
  return { kind: 'signed_in', user, token }
}
