import { readFile } from 'node:fs/promises'
import drive from '@adonisjs/drive/services/main'
import type { PluginCaseFiles } from '@tramita/plugin-api'
import { translate } from '@tramita/i18n'
import { storeGenerated } from '#services/generated_files/store'
import { inspectUpload, isRefusal } from '#services/uploads/inspect'
import { findUpload, parseFilePath } from '#services/uploads/staging'
import { fieldUploadTarget } from '#services/uploads/targets'
import { latestVersionByKey } from '#services/process/definitions'
import { principalMayRead } from '#services/uploads/readers'
import { principalBehind } from './principals.js'

/** plugin-api caseFiles: a form's files, read under the core's file route's rule, and staged as uploads are. */
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

    async stage(upload, owner, target, language = 'es') {
      const refusal = (key: string, vars: Record<string, unknown> = {}, status?: number) => ({
        reason: key,
        message: translate(language, key, vars),
        ...(status ? { status } : {}),
      })
      const version = await latestVersionByKey(String(target.form).slice(0, 64))
      if (!version) return refusal('engine.not_found', {}, 404)
      // The field's own rules, as its upload would be checked (an image field takes images only).
      const rules = fieldUploadTarget(version, target.field, 'files')
      if (!rules) return refusal('upload.field_unknown', { field: target.field })
      const result = await inspectUpload(
        { tmpPath: upload.tmpPath, clientName: upload.name, size: upload.size },
        0,
        rules,
        upload.size
      )
      if (isRefusal(result)) return refusal(result.key, result.vars, result.status)
      // The route capped the body, so the bytes fit in memory (a scanned page or a few).
      return storeGenerated({
        bytes: await readFile(upload.tmpPath),
        ext: result.storageExt,
        mime: result.mime,
        realName: upload.name,
        folder: rules.fieldType === 'image' ? 'images' : 'files',
        owner: { userId: owner.userId, taskId: null },
        formId: version.formId,
        field: target.field,
        caseId: null,
        ip: owner.ip,
      })
    },
  }
}
