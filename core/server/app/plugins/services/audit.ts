import type { PluginAudit } from '@tramita/plugin-api'
import { audit } from '#services/audit'

/** The core's audit log; the plugin's actions carry its id (`documents.share`). */
export function pluginAudit(pluginId: string): PluginAudit {
  return {
    async record(who, action, subject, data) {
      const actorId = who && 'userId' in who ? who.userId : null
      const ip = who && 'ip' in who ? who.ip : null
      const impersonator = who && 'impersonatorId' in who ? who.impersonatorId : null
      await audit({
        actorId,
        action: `${pluginId}.${action}`.slice(0, 100),
        subjectType: subject?.type,
        subjectId: subject?.id,
        data: impersonator ? { ...data, impersonatorId: impersonator } : data,
        ip,
      })
    },
  }
}
