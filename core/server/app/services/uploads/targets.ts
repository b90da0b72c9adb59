import { normalizeExtensions } from '@tramita/contract'
import type { LoadedVersion } from '#services/process/definitions'
import { UPLOAD_FIELD_TYPES, type Foldertype, type UploadTarget } from './inspect.js'

/**
 * The upload rules of a form version's field (its type, allowed extensions and limit), or null when
 * the form has no such field or it takes no files: the upload route's and a plugin's staged files'.
 */
export function fieldUploadTarget(version: LoadedVersion, name: string, foldertype: Foldertype): UploadTarget | null {
  const item = version.form.fields.find((f) => f.field_name === name)
  if (!item || !UPLOAD_FIELD_TYPES.has(item.type)) return null
  if (item.type !== 'file') return { fieldType: item.type, allowed: [], limit: 1, foldertype }
  const limit = Number(item.data?.ref?.limit ?? -1)
  const allowActiveContent = item.data?.allowActiveContent === true
  return { fieldType: 'file', allowed: normalizeExtensions(item.data?.ext), limit, foldertype, allowActiveContent }
}
