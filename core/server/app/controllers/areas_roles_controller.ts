import type { HttpContext } from '@adonisjs/core/http'
import { isCoreRole } from '@tramita/contract/rules'
import Area from '#models/area'
import Role from '#models/role'
import { done, fail } from '#lib/envelope'
import { idValue } from '#lib/input'
import { message } from '#lib/messages'
import { auditRequest } from '#services/audit'
import { areaValidator, roleValidator } from '#validators/user'

/** Areas and roles management (spec 001 §2 users area). The spec's four roles cannot be renamed or deleted. */
export default class AreasRolesController {
  async storeArea(ctx: HttpContext) {
    const data = await areaValidator.validate(ctx.request.all())
    if (await Area.findBy('name', data.name)) fail(message(ctx, 'auth.name_taken'))
    const area = await Area.create({ name: data.name, color: data.color ?? '#1C1066' })
    await auditRequest(ctx, 'area.create', { type: 'area', id: area.id })
    return done({ id: area.id, name: area.name, color: area.color })
  }

  async updateArea(ctx: HttpContext) {
    const area = await this.area(ctx)
    const data = await areaValidator.validate(ctx.request.all())
    const clash = await Area.query().where('name', data.name).whereNot('id', area.id).first()
    if (clash) fail(message(ctx, 'auth.name_taken'))
    area.merge({ name: data.name, ...(data.color ? { color: data.color } : {}) })
    await area.save()
    await auditRequest(ctx, 'area.update', { type: 'area', id: area.id })
    return done({ id: area.id, name: area.name, color: area.color })
  }

  async destroyArea(ctx: HttpContext) {
    const area = await this.area(ctx)
    await area.delete()
    await auditRequest(ctx, 'area.delete', { type: 'area', id: area.id })
    return done(true)
  }

  async storeRole(ctx: HttpContext) {
    const data = await roleValidator.validate(ctx.request.all())
    if (await Role.findBy('name', data.name)) fail(message(ctx, 'auth.name_taken'))
    const role = await Role.create({ name: data.name })
    await auditRequest(ctx, 'role.create', { type: 'role', id: role.id })
    return done({ id: role.id, name: role.name })
  }

  async updateRole(ctx: HttpContext) {
    const role = await this.customRole(ctx)
    const data = await roleValidator.validate(ctx.request.all())
    if (await Role.query().where('name', data.name).whereNot('id', role.id).first())
      fail(message(ctx, 'auth.name_taken'))
    role.name = data.name
    await role.save()
    await auditRequest(ctx, 'role.update', { type: 'role', id: role.id })
    return done({ id: role.id, name: role.name })
  }

  async destroyRole(ctx: HttpContext) {
    const role = await this.customRole(ctx)
    await role.delete()
    await auditRequest(ctx, 'role.delete', { type: 'role', id: role.id })
    return done(true)
  }

  private async area(ctx: HttpContext): Promise<Area> {
    const area = await Area.find(idValue(ctx, ctx.params.id))
    if (!area) fail(message(ctx, 'auth.not_found'), 404)
    return area
  }

  private async customRole(ctx: HttpContext): Promise<Role> {
    const role = await Role.find(idValue(ctx, ctx.params.id))
    if (!role) fail(message(ctx, 'auth.not_found'), 404)
    if (isCoreRole(role.name)) fail(message(ctx, 'auth.core_role'), 403)
    return role
  }
}
