import drive from '@adonisjs/drive/services/main'
import type { PluginCaseFiles } from '@tramita/plugin-api'
import { findUpload, parseFilePath } from '#services/uploads/staging'
import { principalMayRead } from '#services/uploads/readers'
import { principalBehind } from './principals.js'

/** plugin-api caseFiles: a form's files, read under the core's file route's rule. */
export function pluginCaseFiles(): PluginCaseFiles {
  return {
    async open(path, who) {
      const principal = principalBehind(who)
      const clean = parseFilePath(path)
      if (!principal || !clean) return null
      const row = await findUpload(clean)
      if (!row || !(await principalMayRead(row, principal))) return null
      return {
        path: clean,
        name: row.real_name,
        mime: row.mime,
        size: Number(row.size),
        read: async () => (await drive.use().getStream(row.storage_key)) as AsyncIterable<Uint8Array>,
      }
    },
  }
}
