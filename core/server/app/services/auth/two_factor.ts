import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import LoginTicket from '#models/login_ticket'
import RecoveryCode from '#models/recovery_code'
import User from '#models/user'
import { affectedRows } from '#lib/db_result'
import { hashToken, newToken } from '#lib/tokens'
import { checkCode, enrolment, newSeed, openSeed, sealSeed } from '#services/auth/totp'

/**
 * The second step of a sign-in. A right password for a user with two-factor (or who must enrol)
 * yields a ticket, not a session: the ticket, 10 minutes long and bound to that user, is what the
 * code is checked against, and a verified ticket is what the sign-in retry trades for a session.
 */
export const TICKET_MINUTES = 10
export const MAX_CODE_FAILURES = 3
export const LOCK_MINUTES = 15
export const RECOVERY_CODE_COUNT = 10

export interface TicketStart {
  ticket: string
  /** Wrong codes already counted: those of the user's previous ticket while it was still open. */
  failures: number
  /** Present when the user must enrol: the new seed (base32), its otpauth URI and a QR image. */
  enrol?: { secret: string; uri: string; qr: string }
}

/**
 * A new ticket replaces the user's previous one, but not its count: wrong codes go on counting
 * across sign-ins until the open ticket's window ends, so signing in again never buys fresh tries
 * and the attempts shown are the real ones.
 */
export async function startTicket(user: User, ip: string): Promise<TicketStart> {
  const ticket = newToken()
  const enrolling = !user.twoFa
  const seed = enrolling ? newSeed() : null
  // Read, replace and carry the count in one transaction, the user's tickets locked: a wrong code
  // counted meanwhile on the old ticket is not lost, and two sign-ins at once carry the same count.
  const failures = await db.transaction(async (trx) => {
    const tickets = await LoginTicket.query({ client: trx }).where('user_id', user.id).forUpdate()
    const now = DateTime.now()
    const carried = Math.max(0, ...tickets.filter((row) => row.expiresAt > now).map((row) => row.failures))
    await LoginTicket.query({ client: trx }).where('user_id', user.id).delete()
    await LoginTicket.create(
      {
        tokenHash: hashToken(ticket),
        userId: user.id,
        pendingSecret: seed ? sealSeed(seed) : null,
        failures: carried,
        verified: false,
        ip,
        expiresAt: now.plus({ minutes: TICKET_MINUTES }),
      },
      { client: trx }
    )
    return carried
  })
  if (!seed) return { ticket, failures }
  return { ticket, failures, enrol: { secret: seed, ...(await enrolment(seed, user.username)) } }
}

export async function findTicket(ticket: unknown): Promise<LoginTicket | null> {
  if (typeof ticket !== 'string' || !ticket || ticket.length > 200) return null
  const row = await LoginTicket.findBy('tokenHash', hashToken(ticket))
  return row && row.expiresAt > DateTime.now() ? row : null
}

/** Recovery codes look like `k3xq-9fwa`: 40 random bits each, shown once, stored hashed. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
function recoveryCode(): string {
  const bytes = randomBytes(8)
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length])
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`
}
const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '')

export async function newRecoveryCodes(
  userId: number,
  client: QueryClientContract = db.connection()
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode)
  await client.from('recovery_codes').where('user_id', userId).delete()
  await client
    .table('recovery_codes')
    .multiInsert(codes.map((c) => ({ user_id: userId, code_hash: hashToken(normaliseRecovery(c)) })))
  return codes
}

async function spendRecoveryCode(userId: number, code: string): Promise<boolean> {
  const row = await RecoveryCode.query()
    .where('user_id', userId)
    .where('code_hash', hashToken(normaliseRecovery(code)))
    .whereNull('used_at')
    .first()
  if (!row) return false
  const now = DateTime.now().toSQL({ includeOffset: false })
  const updated = await db.from('recovery_codes').where('id', row.id).whereNull('used_at').update({ used_at: now })
  return affectedRows(updated) === 1
}

export type CodeOutcome =
  { result: 'ok'; recoveryCodes?: string[] } | { result: 'wrong'; failures: number } | { result: 'locked' }

/**
 * Checks a code (six digits, or a recovery code) against a ticket. A good code during enrolment
 * turns two-factor on and returns fresh recovery codes. The third wrong code deletes the ticket and
 * locks the account for LOCK_MINUTES.
 */
export async function checkTicketCode(ticket: LoginTicket, code: string): Promise<CodeOutcome> {
  const user = await User.findOrFail(ticket.userId)
  const text = code.trim()
  const pending = openSeed(ticket.pendingSecret)
  let step: number | null = null
  let ok: boolean
  if (pending) {
    step = await checkCode(pending, text, null)
    ok = step !== null
  } else if (/^\d{6}$/.test(text)) {
    const seed = openSeed(user.twoFaSecret)
    step = seed ? await checkCode(seed, text, user.twoFaLastStep) : null
    ok = step !== null
  } else {
    ok = await spendRecoveryCode(user.id, text)
  }
  if (ok) {
    let recoveryCodes: string[] | undefined
    await db.transaction(async (trx) => {
      const changes: Record<string, unknown> = { updated_at: DateTime.now().toSQL({ includeOffset: false }) }
      if (step !== null) changes.two_fa_last_step = step
      if (pending) {
        changes.two_fa = true
        changes.two_fa_secret = ticket.pendingSecret
        recoveryCodes = await newRecoveryCodes(user.id, trx)
      }
      await trx.from('users').where('id', user.id).update(changes)
      await trx.from('login_tickets').where('id', ticket.id).update({ verified: true, pending_secret: null })
    })
    return { result: 'ok', recoveryCodes }
  }
  ticket.failures += 1
  if (ticket.failures >= MAX_CODE_FAILURES) {
    await ticket.delete()
    user.lockedUntil = DateTime.now().plus({ minutes: LOCK_MINUTES })
    await user.save()
    return { result: 'locked' }
  }
  await ticket.save()
  return { result: 'wrong', failures: ticket.failures }
}

/** An administrator's reset: the user enrols again at the next sign-in if two-factor is required. */
export async function resetTwoFactor(userId: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.from('recovery_codes').where('user_id', userId).delete()
    await trx.from('login_tickets').where('user_id', userId).delete()
    await trx
      .from('users')
      .where('id', userId)
      .update({
        two_fa: false,
        two_fa_secret: null,
        two_fa_last_step: null,
        updated_at: DateTime.now().toSQL({ includeOffset: false }),
      })
  })
}
