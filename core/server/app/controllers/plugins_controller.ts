import type { HttpContext } from '@adonisjs/core/http'
import { done } from '#lib/envelope'
import { isAdmin } from '#services/auth/principal'
import { platform } from '#services/platform'

export default class PluginsController {
  /** GET /api/plugins: every enabled plugin with its version and whether it is running. */
  async index() {
    return done(platform().plugins.status())
  }

  /**
   * GET /inside/navigation: what the caller can open from the home page, the core's screens then
   * those the enabled plugins declare (`nav` in definePlugin: only plugins that ship the screens),
   * each kept only for the roles it names. Every path here is a screen runtime-web has.
   */
  async navigation(ctx: HttpContext) {
    const principal = ctx.principal!
    const core = [
      { plugin: 'core', path: '/process', label: 'nav.process' },
      ...(isAdmin(principal)
        ? [
            { plugin: 'core', path: '/users', label: 'nav.users' },
            { plugin: 'core', path: '/plugin_settings', label: 'nav.plugin_settings' },
          ]
        : []),
      { plugin: 'core', path: '/status', label: 'nav.status' },
    ]
    return done({ entries: [...core, ...platform().plugins.navigation(principal.roles)] })
  }
}
