import Institution from '#models/institution'
import env from '#start/env'
import { done } from '#lib/envelope'

export default class InstitutionController {
  /**
   * GET /data/config/infocompany → `{company, url_img}` (spec 000 §7), plus `principal_host` (where
   * sign-in hands the token over, when PRINCIPAL_HOST is set) for the login screen.
   */
  async info() {
    const institution = await Institution.query().orderBy('id').first()
    return done({
      company: institution?.name ?? 'Tramita',
      url_img: institution?.logo ?? '',
      principal_host: env.get('PRINCIPAL_HOST') ?? null,
    })
  }
}
