import type { HttpContext } from '@adonisjs/core/http'
import { healthReport } from '#services/health_service'

export default class HealthController {
  async show({ response }: HttpContext) {
    const report = await healthReport()
    return response.status(report.status === 'ok' ? 200 : 503).send(report)
  }
}
