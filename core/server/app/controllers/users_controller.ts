import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { pickLanguage } from '@tramita/i18n'
import ApiToken from '#models/api_token'
import Area from '#models/area'
import Role from '#models/role'
import User from '#models/user'
import { done, fail } from '#lib/envelope'
import { boolField, field, idValue } from '#lib/input'
import { message } from '#lib/messages'
import { hashPassword, prehash } from '#lib/password'
import { checkPasswordPolicy } from '#lib/password_policy'
import { hashToken, newToken } from '#lib/tokens'
import { audit } from '#services/audit'
import { API_TOKEN_PREFIX, rolesOf } from '#services/auth/principal'
import { securityNoticeJob } from '#services/auth/recovery'
import { resetTwoFactor } from '#services/auth/two_factor'
import { platform } from '#services/platform'
import { openSession, revokeSession, revokeUserSessions } from '#services/session_service'
import { buildTree, mayAdminister, mayGrantRole, mayImpersonate, profileOf } from '#services/users'
import { createUserValidator, updateUserValidator } from '#validators/user'

const PAGE_SIZES = [10, 20, 30, 50, 100]

/** Lists sent as JSON text in form-data (areas, roles) become arrays before validation. */
function bodyWithLists(ctx: HttpContext, keys: string[]) {
  const body = { ...ctx.request.all() }
  for (const key of keys) {
    if (typeof body[key] === 'string') {
      try {
        body[key] = JSON.parse(body[key])
      } catch {
        fail(message(ctx, 'auth.field_invalid', { field: key }))
      }
    }
  }
  return body
}

/** Users for selectors (spec 000 §7) and the administration of users (spec 001 §2). */
export default class UsersController {
  /** GET /data/areas: map of areas by id (id, color, name). */
  async areas() {
    const areas = await Area.query().orderBy('name')
    return done(Object.fromEntries(areas.map((a) => [a.id, { id: a.id, color: a.color, name: a.name }])))
  }

  /** GET /data/users/roles: map of roles by id (id, name). */
  async roles() {
    const roles = await Role.query().orderBy('id')
    return done(Object.fromEntries(roles.map((r) => [r.id, { id: r.id, name: r.name }])))
  }

  /** GET /data/allusers: users for selectors (id, first_name, last_name, photo, areas, rol_user). */
  async allUsers() {
    const users = await User.query().where('enabled', true).preload('areas').preload('roles').orderBy('first_name')
    return done({
      users: users.map((u) => ({
        id: u.id,
        first_name: u.firstName,
        last_name: u.lastName,
        photo: u.photo,
        areas: u.areas.map((a) => a.id),
        rol_user: u.roles.map((r) => r.id),
      })),
    })
  }

  /** GET /inside/users?search=&page=&per_page= */
  async index(ctx: HttpContext) {
    const search = String(ctx.request.input('search', '')).trim().slice(0, 100)
    const page = Math.max(1, Number.parseInt(String(ctx.request.input('page', 1)), 10) || 1)
    const wanted = Number.parseInt(String(ctx.request.input('per_page', 10)), 10)
    const perPage = PAGE_SIZES.includes(wanted) ? wanted : 10
    const query = User.query().preload('areas').preload('roles').orderBy('id')
    if (search) {
      // '!' escapes LIKE's wildcards; backslash would mean different things to SQLite and MySQL.
      const like = `%${search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`
      query.where((q) => {
        for (const column of ['username', 'email', 'first_name', 'last_name', 'document_number']) {
          q.orWhereRaw(`LOWER(${column}) LIKE ? ESCAPE '!'`, [like])
        }
      })
    }
    const result = await query.paginate(page, perPage)
    return done({ users: result.all().map(profileOf), total: result.total, page, per_page: perPage })
  }

  /** GET /inside/users/tree */
  async tree() {
    const users = await User.query().select('id', 'username', 'first_name', 'last_name', 'parent_id').orderBy('id')
    return done(buildTree(users))
  }

  /** GET /inside/users/:id */
  async show(ctx: HttpContext) {
    const user = await this.find(ctx)
    await user.load('areas')
    await user.load('roles')
    return done(profileOf(user))
  }

  /** POST /inside/users */
  async store(ctx: HttpContext) {
    const data = await createUserValidator.validate(bodyWithLists(ctx, ['areas', 'roles']))
    if (await User.query().where('username', data.username).first()) fail(message(ctx, 'auth.username_taken'))
    if (data.email && (await User.query().whereRaw('LOWER(email) = ?', [data.email.toLowerCase()]).first())) {
      fail(message(ctx, 'auth.email_taken'))
    }
    let passwordHash: string | null = null
    if (data.password) {
      const policy = checkPasswordPolicy(data.password, data.password)
      if (!policy.ok) fail(message(ctx, 'auth.password_rules'), 400, { failed: policy.failed })
      passwordHash = await hashPassword(prehash(data.password))
    }
    const roles = await this.grantableRoles(ctx, data.roles)
    const areas = data.areas ? await this.existingAreas(ctx, data.areas) : undefined
    await this.checkParent(ctx, data.parent_id)
    const user = await db.transaction(async (trx) => {
      const created = await User.create(
        {
          username: data.username,
          passwordHash,
          ...this.columns(data),
          firstName: data.first_name,
          lastName: data.last_name ?? '',
          enabled: data.enabled ?? true,
          blocked: false,
          apiEnabled: false,
          requiredTfa: data.required_tfa ?? false,
          twoFa: false,
          authSource: data.auth_source ?? 'local',
        },
        { client: trx }
      )
      if (roles) await created.related('roles').sync(roles, true, trx)
      if (areas) await created.related('areas').sync(areas, true, trx)
      return created
    })
    await audit({
      actorId: ctx.principal!.user.id,
      action: 'user.create',
      subjectType: 'user',
      subjectId: user.id,
      ip: ctx.request.ip(),
    })
    await user.load('areas')
    await user.load('roles')
    return done(profileOf(user))
  }

  /** PUT /inside/users/:id */
  async update(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const data = await updateUserValidator.validate(bodyWithLists(ctx, ['areas', 'roles']))
    if (
      data.email &&
      (await User.query().whereRaw('LOWER(email) = ?', [data.email.toLowerCase()]).whereNot('id', user.id).first())
    ) {
      fail(message(ctx, 'auth.email_taken'))
    }
    if (data.parent_id === user.id) fail(message(ctx, 'auth.field_invalid', { field: 'parent_id' }))
    const roles = await this.grantableRoles(ctx, data.roles)
    const areas = data.areas ? await this.existingAreas(ctx, data.areas) : undefined
    await this.checkParent(ctx, data.parent_id)
    await db.transaction(async (trx) => {
      user.useTransaction(trx)
      user.merge(this.columns(data))
      if (data.first_name !== undefined) user.firstName = data.first_name
      if (data.last_name !== undefined) user.lastName = data.last_name
      if (data.required_tfa !== undefined) user.requiredTfa = data.required_tfa
      if (data.enabled !== undefined) user.enabled = data.enabled
      if (data.auth_source !== undefined) user.authSource = data.auth_source
      await user.save()
      if (roles) await user.related('roles').sync(roles, true, trx)
      if (areas) await user.related('areas').sync(areas, true, trx)
    })
    if (data.enabled === false) await revokeUserSessions(user.id)
    await audit({
      actorId: ctx.principal!.user.id,
      action: 'user.update',
      subjectType: 'user',
      subjectId: user.id,
      ip: ctx.request.ip(),
    })
    await user.load('areas')
    await user.load('roles')
    return done(profileOf(user))
  }

  /** PUT /inside/users/:id/block (blocked): a blocked user cannot sign in and loses open sessions at once. */
  async block(ctx: HttpContext) {
    const user = await this.administered(ctx)
    user.blocked = boolField(ctx, 'blocked')
    await user.save()
    if (user.blocked) {
      await revokeUserSessions(user.id)
      await platform().queue.enqueue(securityNoticeJob.name, {
        userId: user.id,
        notice: 'blocked',
        lang: pickLanguage(ctx.request.header('accept-language')),
      })
    }
    await audit({
      actorId: ctx.principal!.user.id,
      action: user.blocked ? 'user.block' : 'user.unblock',
      subjectType: 'user',
      subjectId: user.id,
      ip: ctx.request.ip(),
    })
    return done({ id: user.id, blocked: user.blocked })
  }

  /** PUT /inside/users/:id/password (password, confirmation): ends the user's sessions. */
  async setPassword(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const password = field(ctx, 'password', { max: 1024 })
    const confirmation = field(ctx, 'confirmation', { max: 1024, required: false })
    const policy = checkPasswordPolicy(password, confirmation)
    if (!policy.ok) fail(message(ctx, 'auth.password_rules'), 400, { failed: policy.failed })
    user.passwordHash = await hashPassword(prehash(password))
    user.passwordChangedAt = DateTime.now()
    await user.save()
    await revokeUserSessions(user.id)
    await audit({
      actorId: ctx.principal!.user.id,
      action: 'user.password',
      subjectType: 'user',
      subjectId: user.id,
      ip: ctx.request.ip(),
    })
    await platform().queue.enqueue(securityNoticeJob.name, {
      userId: user.id,
      notice: 'password_changed',
      lang: pickLanguage(ctx.request.header('accept-language')),
    })
    return done({ message: message(ctx, 'change_pass_correct') })
  }

  /** PUT /inside/users/:id/api (enabled): turning API use off revokes the user's API tokens at once. */
  async setApi(ctx: HttpContext) {
    const user = await this.administered(ctx)
    user.apiEnabled = boolField(ctx, 'enabled')
    await user.save()
    let revoked = 0
    if (!user.apiEnabled) {
      const result = await ApiToken.query().where('user_id', user.id).delete()
      revoked = Number(Array.isArray(result) ? result[0] : result)
    }
    await audit({
      actorId: ctx.principal!.user.id,
      action: user.apiEnabled ? 'user.api_on' : 'user.api_off',
      subjectType: 'user',
      subjectId: user.id,
      data: { revoked },
      ip: ctx.request.ip(),
    })
    return done({ id: user.id, api_enabled: user.apiEnabled, revoked_tokens: revoked })
  }

  /** PUT /inside/users/:id/two_fa/reset */
  async resetTwoFa(ctx: HttpContext) {
    const user = await this.administered(ctx)
    await resetTwoFactor(user.id)
    await audit({
      actorId: ctx.principal!.user.id,
      action: 'user.two_fa_reset',
      subjectType: 'user',
      subjectId: user.id,
      ip: ctx.request.ip(),
    })
    await platform().queue.enqueue(securityNoticeJob.name, {
      userId: user.id,
      notice: 'two_fa_reset',
      lang: pickLanguage(ctx.request.header('accept-language')),
    })
    return done({ id: user.id, two_fa: false })
  }

  /** PUT /inside/users/:id/sessions/close: every open session of the user ends now. */
  async closeSessions(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const closed = await revokeUserSessions(user.id)
    await audit({
      actorId: ctx.principal!.user.id,
      action: 'user.close_sessions',
      subjectType: 'user',
      subjectId: user.id,
      data: { closed },
      ip: ctx.request.ip(),
    })
    return done({ id: user.id, closed })
  }

  /**
   * POST /inside/users/:id/impersonate (reason): a session as the user, marked with the
   * administrator's id. Refused (and audited) for anyone of equal or higher rank.
   */
  async impersonate(ctx: HttpContext) {
    const actor = ctx.principal!
    const reason = field(ctx, 'reason', { max: 500 }).trim()
    if (!reason) fail(message(ctx, 'auth.field_required', { field: 'reason' }))
    const target = await this.find(ctx)
    const targetRoles = await rolesOf(target.id)
    if (
      actor.impersonatorId ||
      !actor.session ||
      !mayImpersonate(actor, targetRoles) ||
      target.blocked ||
      !target.enabled
    ) {
      await audit({
        actorId: actor.user.id,
        action: 'impersonate.refused',
        subjectType: 'user',
        subjectId: target.id,
        data: { reason },
        ip: ctx.request.ip(),
      })
      fail(message(ctx, 'auth.impersonate_refused'), 403)
    }
    const { token } = await openSession(target.id, {
      ip: ctx.request.ip(),
      userAgent: ctx.request.header('user-agent'),
      impersonatorId: actor.user.id,
    })
    await audit({
      actorId: actor.user.id,
      action: 'impersonate.start',
      subjectType: 'user',
      subjectId: target.id,
      data: { reason, impersonator_id: actor.user.id, user_id: target.id },
      ip: ctx.request.ip(),
    })
    return done({ token_new: token, id: target.id, username: target.username })
  }

  /** DELETE /inside/session/impersonation: ends the impersonation session (the client restores its own). */
  async stopImpersonating(ctx: HttpContext) {
    const p = ctx.principal!
    if (!p.impersonatorId || !p.session) fail(message(ctx, 'auth.not_impersonating'))
    await revokeSession(p.session)
    await audit({
      actorId: p.impersonatorId,
      action: 'impersonate.end',
      subjectType: 'user',
      subjectId: p.user.id,
      ip: ctx.request.ip(),
    })
    return done({ impersonator_id: p.impersonatorId })
  }

  /** GET /inside/users/me/api_tokens */
  async apiTokens(ctx: HttpContext) {
    const tokens = await ApiToken.query().where('user_id', ctx.principal!.user.id).orderBy('id')
    return done(
      tokens.map((t) => ({
        id: t.id,
        name: t.name,
        last_used_at: t.lastUsedAt?.toISO() ?? null,
        created_at: t.createdAt.toISO(),
      }))
    )
  }

  /** POST /inside/users/me/api_tokens (name): the token is shown once. */
  async createApiToken(ctx: HttpContext) {
    const p = ctx.principal!
    if (!p.user.apiEnabled || p.impersonatorId) fail(message(ctx, 'auth.api_disabled'), 403)
    const name = field(ctx, 'name', { max: 100 }).trim()
    const token = newToken(API_TOKEN_PREFIX)
    const row = await ApiToken.create({
      tokenHash: hashToken(token),
      userId: p.user.id,
      name,
      lastUsedAt: null,
      expiresAt: null,
    })
    await audit({
      actorId: p.user.id,
      action: 'api_token.create',
      subjectType: 'api_token',
      subjectId: row.id,
      ip: ctx.request.ip(),
    })
    return done({ id: row.id, name, token })
  }

  /** DELETE /inside/users/me/api_tokens/:id */
  async deleteApiToken(ctx: HttpContext) {
    const id = idValue(ctx, ctx.params.id)
    const deleted = await ApiToken.query().where('id', id).where('user_id', ctx.principal!.user.id).delete()
    return done({ deleted: Number(Array.isArray(deleted) ? deleted[0] : deleted) })
  }

  private async find(ctx: HttpContext): Promise<User> {
    const user = await User.find(idValue(ctx, ctx.params.id))
    if (!user) fail(message(ctx, 'auth.user_not_found'), 404)
    return user
  }

  /** The target user, when the caller may administer them (403 otherwise). */
  private async administered(ctx: HttpContext): Promise<User> {
    const user = await this.find(ctx)
    if (!mayAdminister(ctx.principal!, user, await rolesOf(user.id))) fail(message(ctx, 'auth.forbidden'), 403)
    return user
  }

  private async grantableRoles(ctx: HttpContext, ids: number[] | undefined): Promise<number[] | undefined> {
    if (!ids) return undefined
    const roles = await Role.query().whereIn('id', ids)
    if (roles.length !== new Set(ids).size) fail(message(ctx, 'auth.field_invalid', { field: 'roles' }))
    if (!roles.every((role) => mayGrantRole(ctx.principal!, role))) fail(message(ctx, 'auth.forbidden'), 403)
    return roles.map((r) => r.id)
  }

  private async checkParent(ctx: HttpContext, parentId: number | undefined) {
    if (parentId !== undefined && !(await User.find(parentId)))
      fail(message(ctx, 'auth.field_invalid', { field: 'parent_id' }))
  }

  private async existingAreas(ctx: HttpContext, ids: number[]): Promise<number[]> {
    const areas = await Area.query().whereIn('id', ids)
    if (areas.length !== new Set(ids).size) fail(message(ctx, 'auth.field_invalid', { field: 'areas' }))
    return areas.map((a) => a.id)
  }

  private columns(data: {
    email?: string
    document_type?: string
    document_number?: string
    mobile?: string
    gender?: string
    birth_date?: Date
    birth_place?: string
    residence?: string
    stratum?: number
    profession?: string
    parent_id?: number
  }) {
    const out: Partial<User> = {}
    if (data.email !== undefined) out.email = data.email
    if (data.document_type !== undefined) out.documentType = data.document_type
    if (data.document_number !== undefined) out.documentNumber = data.document_number
    if (data.mobile !== undefined) out.mobile = data.mobile
    if (data.gender !== undefined) out.gender = data.gender
    if (data.birth_date !== undefined) out.birthDate = DateTime.fromJSDate(data.birth_date)
    if (data.birth_place !== undefined) out.birthPlace = data.birth_place
    if (data.residence !== undefined) out.residence = data.residence
    if (data.stratum !== undefined) out.stratum = data.stratum
    if (data.profession !== undefined) out.profession = data.profession
    if (data.parent_id !== undefined) out.parentId = data.parent_id
    return out
  }
}
