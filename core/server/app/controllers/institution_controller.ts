import Institution from '#models/institution'
import { done } from '#lib/envelope'

export default class InstitutionController {
  /** GET /data/config/infocompany → `{company, url_img}` (spec 000 §7). */
  async info() {
    const institution = await Institution.query().orderBy('id').first()
    return done({ company: institution?.name ?? 'Tramita', url_img: institution?.logo ?? '' })
  }
}
