import type { PluginMail } from '@tramita/plugin-api'

/** Filled in by the mail job (next commit). */
export function pluginMail(pluginId: string): PluginMail {
  return {
    async send() {
      throw new Error(`plugin "${pluginId}": ctx.mail is not available yet`)
    },
  }
}
