import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import Area from '#models/area'
import Role from '#models/role'
import User from '#models/user'
import { done, fail } from '#lib/envelope'
import { boolField, field, idValue, jsonText } from '#lib/input'
import { message } from '#lib/messages'
import { affectedRows } from '#lib/db_result'
import { hashTypedPassword } from '#lib/password'
import { requirePasswordPolicy } from '#lib/password_policy'
import { hashToken, newToken } from '#lib/tokens'
import { auditRequest } from '#services/audit'
import { API_TOKEN_PREFIX } from '#services/auth/principal'
import { queueSecurityNotice } from '#services/auth/recovery'
import { resetTwoFactor } from '#services/auth/two_factor'
import { openSession, revokeSession, revokeUserSessions } from '#services/session_service'
import { buildTree, mayAdminister, mayGrantRole, mayImpersonate, profileOf } from '#services/users'
import { CLEARABLE_FIELDS, createUserValidator, updateUserValidator } from '#validators/user'

const PAGE_SIZES = [10, 20, 30, 50, 100]

/** Form field → model attribute, for the profile fields administrators write (spec 001 §3). */
const PROFILE_COLUMNS = {
  email: 'email',
  first_name: 'firstName',
  last_name: 'lastName',
  document_type: 'documentType',
  document_number: 'documentNumber',
  mobile: 'mobile',
  gender: 'gender',
  birth_place: 'birthPlace',
  residence: 'residence',
  stratum: 'stratum',
  profession: 'profession',
  parent_id: 'parentId',
  required_tfa: 'requiredTfa',
  enabled: 'enabled',
  auth_source: 'authSource',
} as const satisfies Record<string, keyof User>

/**
 * The body of a create or edit: lists sent as JSON text in form-data (areas, roles) become arrays,
 * and an empty optional field becomes null (cleared) before validation.
 */
function userBody(ctx: HttpContext) {
  const body = { ...ctx.request.all() }
  for (const key of ['areas', 'roles']) {
    if (typeof body[key] === 'string') body[key] = jsonText(ctx, key, body[key], 20_000)
  }
  for (const key of CLEARABLE_FIELDS) {
    if (typeof body[key] === 'string' && body[key].trim() === '') body[key] = null
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
    return done(profileOf(user))
  }

  /** POST /inside/users */
  async store(ctx: HttpContext) {
    const data = await createUserValidator.validate(userBody(ctx))
    if (await User.query().where('username', data.username).first()) fail(message(ctx, 'auth.username_taken'))
    await this.checkEmailFree(ctx, data.email)
    let passwordHash: string | null = null
    if (data.password) {
      requirePasswordPolicy(ctx, data.password, data.password)
      passwordHash = await hashTypedPassword(data.password)
    }
    const roles = await this.grantableRoles(ctx, data.roles)
    const areas = data.areas ? await this.existingAreas(ctx, data.areas) : undefined
    await this.checkParent(ctx, data.parent_id)
    const user = await db.transaction(async (trx) => {
      const created = await User.create(
        {
          username: data.username,
          passwordHash,
          lastName: '',
          enabled: true,
          blocked: false,
          apiEnabled: false,
          requiredTfa: false,
          twoFa: false,
          authSource: 'local',
          ...this.columns(data),
        },
        { client: trx }
      )
      if (roles) await created.related('roles').sync(roles, true, trx)
      if (areas) await created.related('areas').sync(areas, true, trx)
      return created
    })
    await auditRequest(ctx, 'user.create', { type: 'user', id: user.id })
    await user.load('areas')
    await user.load('roles')
    return done(profileOf(user))
  }

  /** PUT /inside/users/:id */
  async update(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const data = await updateUserValidator.validate(userBody(ctx))
    await this.checkEmailFree(ctx, data.email, user.id)
    const roles = await this.grantableRoles(ctx, data.roles)
    const areas = data.areas ? await this.existingAreas(ctx, data.areas) : undefined
    await this.checkParent(ctx, data.parent_id, user.id)
    await db.transaction(async (trx) => {
      user.useTransaction(trx)
      user.merge(this.columns(data))
      await user.save()
      if (roles) await user.related('roles').sync(roles, true, trx)
      if (areas) await user.related('areas').sync(areas, true, trx)
    })
    if (data.enabled === false) await revokeUserSessions(user.id)
    await auditRequest(ctx, 'user.update', { type: 'user', id: user.id })
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
      await queueSecurityNotice(ctx, user.id, 'blocked')
    }
    await auditRequest(ctx, user.blocked ? 'user.block' : 'user.unblock', { type: 'user', id: user.id })
    return done({ id: user.id, blocked: user.blocked })
  }

  /** PUT /inside/users/:id/password (password, confirmation): ends the user's sessions. */
  async setPassword(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const password = field(ctx, 'password', { max: 1024 })
    const confirmation = field(ctx, 'confirmation', { max: 1024, required: false })
    requirePasswordPolicy(ctx, password, confirmation)
    user.passwordHash = await hashTypedPassword(password)
    user.passwordChangedAt = DateTime.now()
    await user.save()
    await revokeUserSessions(user.id)
    await auditRequest(ctx, 'user.password', { type: 'user', id: user.id })
    await queueSecurityNotice(ctx, user.id, 'password_changed')
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
      revoked = affectedRows(result)
    }
    await auditRequest(
      ctx,
      user.apiEnabled ? 'user.api_on' : 'user.api_off',
      { type: 'user', id: user.id },
      { revoked }
    )
    return done({ id: user.id, api_enabled: user.apiEnabled, revoked_tokens: revoked })
  }

  /** PUT /inside/users/:id/two_fa/reset */
  async resetTwoFa(ctx: HttpContext) {
    const user = await this.administered(ctx)
    await resetTwoFactor(user.id)
    await auditRequest(ctx, 'user.two_fa_reset', { type: 'user', id: user.id })
    await queueSecurityNotice(ctx, user.id, 'two_fa_reset')
    return done({ id: user.id, two_fa: false })
  }

  /** PUT /inside/users/:id/sessions/close: every open session of the user ends now. */
  async closeSessions(ctx: HttpContext) {
    const user = await this.administered(ctx)
    const closed = await revokeUserSessions(user.id)
    await auditRequest(ctx, 'user.close_sessions', { type: 'user', id: user.id }, { closed })
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
    const targetRoles = target.roles.map((role) => role.name)
    if (
      actor.impersonatorId ||
      !actor.session ||
      !mayImpersonate(actor, targetRoles) ||
      target.blocked ||
      !target.enabled
    ) {
      await auditRequest(ctx, 'impersonate.refused', { type: 'user', id: target.id }, { reason })
      fail(message(ctx, 'auth.impersonate_refused'), 403)
    }
    const { token } = await openSession(target.id, {
      ip: ctx.request.ip(),
      userAgent: ctx.request.header('user-agent'),
      impersonatorId: actor.user.id,
    })
    await auditRequest(
      ctx,
      'impersonate.start',
      { type: 'user', id: target.id },
      { reason, impersonator_id: actor.user.id, user_id: target.id }
    )
    return done({ token_new: token, id: target.id, username: target.username })
  }

  /** DELETE /inside/session/impersonation: ends the impersonation session (the client restores its own). */
  async stopImpersonating(ctx: HttpContext) {
    const p = ctx.principal!
    if (!p.impersonatorId || !p.session) fail(message(ctx, 'auth.not_impersonating'))
    await revokeSession(p.session)
    await auditRequest(ctx, 'impersonate.end', { type: 'user', id: p.user.id }, undefined, p.impersonatorId)
    return done({ impersonator_id: p.impersonatorId })
  }

  /** GET /inside/users/me/api_tokens */
  async apiTokens(ctx: HttpContext) {
    const tokens = await ApiToken.query().where('user_id', this.tokenOwner(ctx).user.id).orderBy('id')
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
    const p = this.tokenOwner(ctx)
    if (!p.user.apiEnabled) fail(message(ctx, 'auth.api_disabled'), 403)
    const name = field(ctx, 'name', { max: 100 }).trim()
    const token = newToken(API_TOKEN_PREFIX)
    const row = await ApiToken.create({
      tokenHash: hashToken(token),
      userId: p.user.id,
      name,
      lastUsedAt: null,
      expiresAt: null,
    })
    await auditRequest(ctx, 'api_token.create', { type: 'api_token', id: row.id })
    return done({ id: row.id, name, token })
  }

  /** DELETE /inside/users/me/api_tokens/:id */
  async deleteApiToken(ctx: HttpContext) {
    const id = idValue(ctx, ctx.params.id)
    const deleted = await ApiToken.query().where('id', id).where('user_id', this.tokenOwner(ctx).user.id).delete()
    // Someone else's token and a missing one get the same answer: nothing tells them apart.
    if (affectedRows(deleted) === 0) fail(message(ctx, 'auth.api_token_not_found'), 404)
    await auditRequest(ctx, 'api_token.delete', { type: 'api_token', id })
    return done({ deleted: 1 })
  }

  /** The caller, managing their own API tokens: an impersonating administrator may not. */
  private tokenOwner(ctx: HttpContext) {
    const p = ctx.principal!
    if (p.impersonatorId) fail(message(ctx, 'auth.tokens_while_impersonating'), 403)
    return p
  }

  /** The user named by the route, with roles (every caller needs them for the rank rules). */
  private async find(ctx: HttpContext): Promise<User> {
    const user = await User.query().where('id', idValue(ctx, ctx.params.id)).preload('roles').first()
    if (!user) fail(message(ctx, 'auth.user_not_found'), 404)
    return user
  }

  /** The target user, when the caller may administer them (403 otherwise). */
  private async administered(ctx: HttpContext): Promise<User> {
    const user = await this.find(ctx)
    if (
      !mayAdminister(
        ctx.principal!,
        user,
        user.roles.map((role) => role.name)
      )
    )
      fail(message(ctx, 'auth.forbidden'), 403)
    return user
  }

  private async grantableRoles(ctx: HttpContext, ids: number[] | undefined): Promise<number[] | undefined> {
    if (!ids) return undefined
    const roles = await Role.query().whereIn('id', ids)
    if (roles.length !== new Set(ids).size) fail(message(ctx, 'auth.field_invalid', { field: 'roles' }))
    if (!roles.every((role) => mayGrantRole(ctx.principal!, role))) fail(message(ctx, 'auth.forbidden'), 403)
    return roles.map((r) => r.id)
  }

  /** E-mail addresses are unique without regard to case. */
  private async checkEmailFree(ctx: HttpContext, email: string | null | undefined, exceptId?: number) {
    if (!email) return
    const query = User.query().whereRaw('LOWER(email) = ?', [email.toLowerCase()])
    if (exceptId !== undefined) query.whereNot('id', exceptId)
    if (await query.first()) fail(message(ctx, 'auth.email_taken'))
  }

  /**
   * The superior must exist and, when editing, must not be the user or one of the user's own
   * subordinates (that would make the tree a loop).
   */
  private async checkParent(ctx: HttpContext, parentId: number | null | undefined, userId?: number) {
    if (parentId === undefined || parentId === null) return
    const invalid = () => fail(message(ctx, 'auth.field_invalid', { field: 'parent_id' }))
    if (!(await User.find(parentId))) invalid()
    if (userId === undefined) return
    const parents = new Map(
      (await User.query().select('id', 'parent_id').whereNotNull('parent_id')).map((u) => [u.id, u.parentId])
    )
    const seen = new Set<number>()
    for (let at: number | null | undefined = parentId; at != null && !seen.has(at); at = parents.get(at)) {
      if (at === userId) invalid()
      seen.add(at)
    }
  }

  private async existingAreas(ctx: HttpContext, ids: number[]): Promise<number[]> {
    const areas = await Area.query().whereIn('id', ids)
    if (areas.length !== new Set(ids).size) fail(message(ctx, 'auth.field_invalid', { field: 'areas' }))
    return areas.map((a) => a.id)
  }

  /** The profile fields an administrator sent, as model attributes (absent fields are left alone). */
  private columns(data: Record<string, unknown> & { birth_date?: Date | null }): Partial<User> {
    const out: Record<string, unknown> = {}
    for (const [name, attribute] of Object.entries(PROFILE_COLUMNS)) {
      if (data[name] !== undefined) out[attribute] = data[name]
    }
    if (data.birth_date !== undefined) out.birthDate = data.birth_date && DateTime.fromJSDate(data.birth_date)
    return out as Partial<User>
  }
}
