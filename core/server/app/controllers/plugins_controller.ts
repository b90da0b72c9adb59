import { done } from '#lib/envelope'
import { platform } from '#services/platform'

export default class PluginsController {
  /** GET /api/plugins: every enabled plugin with its version and whether it is running. */
  async index() {
    return done(platform().plugins.status())
  }
}
