import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { isLanguage, type Language } from '@tramita/i18n'
import PasswordReset from '#models/password_reset'
import User from '#models/user'
import { appUrl } from '#lib/app_url'
import type { HttpContext } from '@adonisjs/core/http'
import { affectedRows } from '#lib/db_result'
import { languageOf } from '#lib/messages'
import { hashTypedPassword } from '#lib/password'
import { hashToken, newToken } from '#lib/tokens'
import { sendRecoveryMail, sendSecurityNotice, type SecurityNotice } from '#mail/mailer'
import { queueJob } from '#services/job_outbox'
import { rateLimit } from '#services/rate_limits'
import { revokeUserSessions } from '#services/session_service'

/**
 * Password recovery (spec 000 §2, §7): a link with a 256-bit token, single use, valid 30 minutes,
 * stored hashed. The request only queues a job with what the person typed, so a known and an
 * unknown name get the same answer in the same time; the job looks the user up and sends the mail.
 */
export const RESET_MINUTES = 30
/** At most this many recovery mails per account per hour, so the form cannot flood a mailbox. */
const MAILS_PER_HOUR = 3

export async function findUserByNameOrEmail(identifier: string): Promise<User | null> {
  const text = identifier.trim()
  if (!text || text.length > 254) return null
  return User.query().where('username', text).orWhereRaw('LOWER(email) = ?', [text.toLowerCase()]).first()
}

export const recoveryMailJob = {
  name: 'core:password-recovery-mail',
  attempts: 3,
  backoffMs: 10_000,
  async handle(payload: { identifier: string; lang: string }) {
    const lang: Language = isLanguage(payload.lang) ? payload.lang : 'es'
    const user = await findUserByNameOrEmail(String(payload.identifier ?? ''))
    if (!user || !user.email || !user.enabled || user.blocked || user.authSource !== 'local') return { sent: false }
    const budget = await rateLimit({ requests: MAILS_PER_HOUR, duration: '1 hour' }).increment(
      `recovery_mail:${user.id}`
    )
    if (budget.consumed > MAILS_PER_HOUR) return { sent: false }
    const token = newToken()
    await db.transaction(async (trx) => {
      // A new link replaces any earlier one still unused.
      await PasswordReset.query({ client: trx }).where('user_id', user.id).whereNull('used_at').delete()
      await PasswordReset.create(
        {
          tokenHash: hashToken(token),
          userId: user.id,
          expiresAt: DateTime.now().plus({ minutes: RESET_MINUTES }),
          usedAt: null,
        },
        { client: trx }
      )
    })
    await sendRecoveryMail(user, `${appUrl()}/forgetpassword/${token}`, lang, RESET_MINUTES)
    return { sent: true }
  },
}

export const securityNoticeJob = {
  name: 'core:security-notice-mail',
  attempts: 3,
  backoffMs: 10_000,
  async handle(payload: { userId: number; notice: SecurityNotice; lang: string }) {
    const user = await User.find(payload.userId)
    if (!user) return { sent: false }
    await sendSecurityNotice(user, payload.notice, isLanguage(payload.lang) ? payload.lang : 'es')
    return { sent: true }
  },
}

/** Queues a security notice to a user, in the language of the request that caused it. */
export async function queueSecurityNotice(ctx: HttpContext, userId: number, notice: SecurityNotice): Promise<void> {
  await queueJob({ name: securityNoticeJob.name, payload: { userId, notice, lang: languageOf(ctx) } })
}

/** The recovery row a token names while it can still be used (not spent, not expired); reading spends nothing. */
export async function findUsableReset(token: string): Promise<PasswordReset | null> {
  if (!token || token.length > 200) return null
  const reset = await PasswordReset.findBy('tokenHash', hashToken(token))
  return reset && !reset.usedAt && reset.expiresAt > DateTime.now() ? reset : null
}

export type ResetOutcome = { ok: true; userId: number } | { ok: false }

/**
 * Spends a recovery token and sets the new password in one transaction. The token row is claimed
 * with a conditional update, so two concurrent uses cannot both succeed. Every session of the user
 * ends. The second factor is left as it was: a reset never signs in and never bypasses 2FA.
 */
export async function resetPassword(token: string, password: string): Promise<ResetOutcome> {
  const reset = await findUsableReset(token)
  if (!reset) return { ok: false }
  const passwordHash = await hashTypedPassword(password)
  const claimed = await db.transaction(async (trx) => {
    const now = DateTime.now().toSQL({ includeOffset: false })
    const updated = await trx
      .from('password_resets')
      .where('id', reset.id)
      .whereNull('used_at')
      .update({ used_at: now })
    if (affectedRows(updated) !== 1) return false
    await trx
      .from('users')
      .where('id', reset.userId)
      .update({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    return true
  })
  if (!claimed) return { ok: false }
  await revokeUserSessions(reset.userId)
  return { ok: true, userId: reset.userId }
}
