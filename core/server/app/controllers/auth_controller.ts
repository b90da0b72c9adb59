import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import User from '#models/user'
import { done, fail } from '#lib/envelope'
import { field, optionalField } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import { hashTypedPassword, verifyPassword } from '#lib/password'
import { requirePasswordPolicy } from '#lib/password_policy'
import { auditRequest } from '#services/audit'
import { newCaptchaChallenge } from '#services/auth/captcha'
import { directoryConfigured, directoryPublicKey } from '#services/auth/directory'
import { findUsableReset, queueSecurityNotice, recoveryMailJob, resetPassword } from '#services/auth/recovery'
import { DESIGNER_ROLES, isAdmin, principalFor } from '#services/auth/principal'
import { signIn } from '#services/auth/sign_in'
import { countPromptFailure, failuresFromAddress, forceCaptcha, limitAuthRequest } from '#services/auth/throttle'
import { checkTicketCode, findTicket, MAX_CODE_FAILURES } from '#services/auth/two_factor'
import { checkCode, openSeed } from '#services/auth/totp'
import { queueJob } from '#services/job_outbox'
import {
  idleSecondsLeft,
  revokeSession,
  revokeUserSessions,
  SESSION_IDLE_MINUTES,
  touchSession,
} from '#services/session_service'

/** Spec 000 §7's sign-in calls plus the captcha challenge and the caller's own session. */
export default class AuthController {
  private async limit(ctx: HttpContext, path: string) {
    await limitAuthRequest(path, ctx.request.ip(), message(ctx, 'auth.too_many_requests'))
  }

  /** GET /data/captcha: a proof-of-work challenge for the sign-in form, harder after more failures. */
  async captcha(ctx: HttpContext) {
    await this.limit(ctx, 'captcha')
    return done(await newCaptchaChallenge(await failuresFromAddress(ctx.request.ip())))
  }

  /** POST /inside/users/validate/ldap: truthy data (the RSA public key) for a directory user. */
  async validateLdap(ctx: HttpContext) {
    await this.limit(ctx, 'ldap')
    const name = field(ctx, 'name_user', { max: 200 }).trim()
    if (!directoryConfigured()) return done(false)
    const user = await User.query().where('username', name).where('auth_source', 'ldap').first()
    return done(user ? { public_key: await directoryPublicKey(), algorithm: 'RSA-OAEP-256' } : false)
  }

  /** PUT /data/login */
  async login(ctx: HttpContext) {
    await this.limit(ctx, 'login')
    const typeLogin = optionalField(ctx, 'type_login', 20) === 'api' ? 'api' : 'normal'
    const result = await signIn({
      user: field(ctx, 'user', { max: 200 }),
      password: field(ctx, 'password', { max: 1024 }),
      captcha: ctx.request.input('captcha'),
      twoFactor: ctx.request.input('two_factor'),
      typeLogin,
      ip: ctx.request.ip(),
      userAgent: ctx.request.header('user-agent') ?? null,
      previousToken: ctx.call?.token ?? null,
    })
    if (result.kind === 'refused') {
      fail(message(ctx, `auth.${result.reason}`), result.status, { captcha_required: result.captchaRequired })
    }
    const { user } = result
    const base = {
      id: user.id,
      username: user.username,
      required_tfa: user.requiredTfa,
      info: { username: user.username },
    }
    if (result.kind === 'second_factor') {
      return done({
        ...base,
        two_fa: true,
        token_new: null,
        ticket: result.ticket,
        secret_code: result.enrol?.secret ?? null,
        enrol: result.enrol ? { uri: result.enrol.uri, qr: result.enrol.qr } : null,
        name: `${user.firstName} ${user.lastName}`.trim(),
        attempts: result.failures,
        attempts_max: MAX_CODE_FAILURES,
        message: message(ctx, 'auth.two_fa_needed'),
      })
    }
    return done({
      ...base,
      two_fa: false,
      token_new: result.token,
      token: result.token,
      secret_code: null,
      message: message(ctx, 'login_correct'),
    })
  }

  /**
   * PUT /data/users/validate/two_fa (id, pin): `data` true or false. During sign-in the ticket from
   * /data/login says which attempt the code belongs to; a signed-in user (the /static/code2FA
   * prompt) is checked by session. The third wrong code ends the attempt (sign-in: the account is
   * locked for a while and the captcha forced; prompt: the session ends).
   */
  async validateTwoFa(ctx: HttpContext) {
    await this.limit(ctx, 'two_fa')
    const pin = field(ctx, 'pin', { max: 40 })
    const ticketValue = ctx.request.input('ticket')
    if (ticketValue === undefined && ctx.call?.token) return this.promptCode(ctx, pin)
    const ticket = await findTicket(ticketValue)
    const id = Number(ctx.request.input('id'))
    if (!ticket || (ctx.request.input('id') !== undefined && ticket.userId !== id)) {
      fail(message(ctx, 'auth.two_fa_expired'), 400, { restart: true })
    }
    const user = await User.findOrFail(ticket.userId)
    const outcome = await checkTicketCode(ticket, pin)
    if (outcome.result === 'ok') {
      await auditRequest(ctx, 'login.two_fa', undefined, undefined, user.id)
      return { ...done(true), recovery_codes: outcome.recoveryCodes ?? null }
    }
    if (outcome.result === 'locked') {
      await forceCaptcha(user.username)
      await auditRequest(ctx, 'login.two_fa_lockout', undefined, undefined, user.id)
      await queueSecurityNotice(ctx, user.id, 'two_fa_lockout')
      fail(message(ctx, 'active_2fa_incorrect'), 423, { restart: true, captcha_required: true })
    }
    return { ...done(false), attempts: outcome.failures, attempts_max: MAX_CODE_FAILURES }
  }

  private async promptCode(ctx: HttpContext, pin: string) {
    const principal = await principalFor(ctx.call?.token ?? null)
    if (!principal?.session) fail(message(ctx, 'error.unauthorized'), 401)
    const user = principal.user
    const seed = openSeed(user.twoFaSecret)
    const step = seed ? await checkCode(seed, pin.trim(), user.twoFaLastStep) : null
    if (step !== null) {
      user.twoFaLastStep = step
      await user.save()
      return done(true)
    }
    const failures = await countPromptFailure(principal.session.id)
    if (failures >= MAX_CODE_FAILURES) {
      await revokeSession(principal.session)
      fail(message(ctx, 'active_2fa_incorrect'), 401, { restart: true })
    }
    return { ...done(false), attempts: failures, attempts_max: MAX_CODE_FAILURES }
  }

  /** PUT /data/forgetPassword/:user: always the same answer; the mail (if any) is sent by a job. */
  async forgetPassword(ctx: HttpContext) {
    await this.limit(ctx, 'forget')
    const identifier = String(ctx.params.user ?? '').slice(0, 254)
    if (!identifier.trim()) fail(message(ctx, 'auth.field_required', { field: 'user' }))
    await queueJob({ name: recoveryMailJob.name, payload: { identifier, lang: languageOf(ctx) } })
    return done({ sent: true, message: message(ctx, 'email_sended_correct') })
  }

  /**
   * GET /data/changePassword/:token: whether the recovery link can still be used, so its page says so
   * on load instead of after the new password is typed. Only reads: the token is spent by the PUT.
   */
  async checkResetToken(ctx: HttpContext) {
    await this.limit(ctx, 'change_check')
    const usable = await findUsableReset(String(ctx.params.token ?? ''))
    return done(usable ? { valid: true } : { valid: false, message: message(ctx, 'auth.reset_invalid') })
  }

  /** PUT /data/changePassword/:token (password, confirmation as typed, so the rules can be checked). */
  async changePassword(ctx: HttpContext) {
    await this.limit(ctx, 'change')
    const password = field(ctx, 'password', { max: 1024 })
    const confirmation = field(ctx, 'confirmation', { max: 1024, required: false })
    requirePasswordPolicy(ctx, password, confirmation)
    const outcome = await resetPassword(String(ctx.params.token ?? ''), password)
    if (!outcome.ok) fail(message(ctx, 'auth.reset_invalid'), 400)
    await auditRequest(ctx, 'password.reset', undefined, undefined, outcome.userId)
    await queueSecurityNotice(ctx, outcome.userId, 'password_changed')
    return done({ message: message(ctx, 'change_pass_correct'), redirect_ms: 2000 })
  }

  /** GET /inside/session: who is signed in, the impersonator if any, and the inactivity budget. */
  async session(ctx: HttpContext) {
    const p = ctx.principal!
    const impersonator = p.impersonatorId ? await User.find(p.impersonatorId) : null
    return done({
      id: p.user.id,
      username: p.user.username,
      first_name: p.user.firstName,
      last_name: p.user.lastName,
      photo: p.user.photo,
      required_tfa: p.user.requiredTfa,
      two_fa: p.user.twoFa,
      enabled: p.user.enabled,
      roles: p.roles,
      admin: isAdmin(p),
      // May open the designer: the same role list its routes take, so the header offers it only then.
      designer: p.roles.some((role) => (DESIGNER_ROLES as readonly string[]).includes(role)),
      impersonator: impersonator ? { id: impersonator.id, username: impersonator.username } : null,
      idle_minutes: SESSION_IDLE_MINUTES,
      idle_seconds_left: p.session ? idleSecondsLeft(p.session) : null,
    })
  }

  /** PUT /inside/session: "stay signed in" from the inactivity warning (the request itself counts). */
  async keepAlive(ctx: HttpContext) {
    const session = ctx.principal!.session
    if (session) await touchSession(session, true)
    return done({ idle_seconds_left: session ? idleSecondsLeft(session) : null })
  }

  /** DELETE /inside/session: sign out. */
  async logout(ctx: HttpContext) {
    const session = ctx.principal!.session
    if (session) await revokeSession(session)
    return done(true)
  }

  /** PUT /inside/users/password: the signed-in user's own change (current, password, confirmation). */
  async changeOwnPassword(ctx: HttpContext) {
    await this.limit(ctx, 'change')
    const p = ctx.principal!
    if (p.impersonatorId || p.user.authSource !== 'local') fail(message(ctx, 'auth.forbidden'), 403)
    const current = field(ctx, 'current', { max: 1024 })
    const password = field(ctx, 'password', { max: 1024 })
    const confirmation = field(ctx, 'confirmation', { max: 1024, required: false })
    if (!p.user.passwordHash || !(await verifyPassword(p.user.passwordHash, current))) {
      fail(message(ctx, 'auth.login_incorrect'), 400)
    }
    requirePasswordPolicy(ctx, password, confirmation)
    p.user.passwordHash = await hashTypedPassword(password)
    p.user.passwordChangedAt = DateTime.now()
    await p.user.save()
    await revokeUserSessions(p.user.id, p.session?.id)
    await auditRequest(ctx, 'password.change')
    await queueSecurityNotice(ctx, p.user.id, 'password_changed')
    return done({ message: message(ctx, 'change_pass_correct') })
  }
}
