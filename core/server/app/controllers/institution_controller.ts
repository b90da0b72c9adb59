import type { HttpContext } from '@adonisjs/core/http'
import Institution from '#models/institution'
import env from '#start/env'
import { done } from '#lib/envelope'
import { auditRequest } from '#services/audit'
import { institutionValidator } from '#validators/institution'

/** The answer of infocompany, shared by the read and the update. */
function infoOf(institution: Institution | null) {
  return {
    company: institution?.name ?? 'Tramita',
    url_img: institution?.logo ?? '',
    login_background: institution?.loginBackground ?? '',
    login_panel: institution?.loginPanel ?? '',
    principal_host: env.get('PRINCIPAL_HOST') ?? null,
  }
}

export default class InstitutionController {
  /**
   * GET /data/config/infocompany → `{company, url_img}` (spec 000 §7), plus the login screen's
   * background and panel images and `principal_host` (where sign-in hands the token over, when
   * PRINCIPAL_HOST is set).
   */
  async info() {
    return done(infoOf(await Institution.query().orderBy('id').first()))
  }

  /** PUT /inside/config/institution (name, logo, login_background, login_panel): superusers only. */
  async update(ctx: HttpContext) {
    const data = await institutionValidator.validate(ctx.request.all())
    const institution = (await Institution.query().orderBy('id').first()) ?? new Institution()
    // An empty image reference clears the setting, so the screen falls back to its default.
    const image = (value: string | undefined, current: string | null) => (value === undefined ? current : value || null)
    institution.merge({
      name: data.name ?? institution.name ?? 'Tramita',
      logo: image(data.logo, institution.logo ?? null),
      loginBackground: image(data.login_background, institution.loginBackground ?? null),
      loginPanel: image(data.login_panel, institution.loginPanel ?? null),
    })
    await institution.save()
    await auditRequest(ctx, 'institution.update', { type: 'institution', id: institution.id })
    return done(infoOf(institution))
  }
}
