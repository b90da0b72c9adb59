import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { valueSlots, type FormConfig } from '@tramita/contract'
import { affectedRows } from '#lib/db_result'
import { isUploader, type UploadRow, type Uploader } from '#services/uploads/staging'

/**
 * Files in a save (spec 000 §3 "Uploaded file entry"): file, image and signature values hold the
 * `path` the upload route answered. A save may reference its caller's staged uploads (they become
 * the case's, in the save's transaction, so a rollback promotes nothing) and files already on this
 * case; any other path is refused, so a client cannot attach a file someone else uploaded.
 */

const FILE_FIELD_TYPES = new Set(['file', 'image', 'signature'])

/** path → field name of every file the values reference. */
export function attachedPaths(form: FormConfig, values: Record<string, unknown>): Map<string, string> {
  const found = new Map<string, string>()
  // A set field's repetitions hold files under their own keys; the upload names the field.
  for (const { item, key } of valueSlots(form, values)) {
    if (!FILE_FIELD_TYPES.has(item.type)) continue
    const value = values[key]
    for (const entry of Array.isArray(value) ? value : [value]) {
      const path = typeof entry === 'object' && entry !== null ? (entry as { path?: unknown }).path : undefined
      if (typeof path === 'string' && path !== '') found.set(path, item.field_name)
    }
  }
  return found
}

export interface Attachments {
  form: FormConfig
  formId: number
  caseId: number
  /** The values being stored, and the case's values before this save (whose files are already its own). */
  values: Record<string, unknown>
  stored: Record<string, unknown>
  uploader: Uploader
}

/**
 * Promotes the staged uploads the values newly reference to the case. Returns the first path that may
 * not be attached (not an upload, someone else's, another field's or form's, expired), or null.
 */
export async function promoteAttachments(trx: TransactionClientContract, input: Attachments): Promise<string | null> {
  const before = attachedPaths(input.form, input.stored)
  const wanted = [...attachedPaths(input.form, input.values)].filter(([path]) => !before.has(path))
  if (wanted.length === 0) return null
  const paths = wanted.map(([path]) => path)
  const rows = (await trx
    .from('uploads')
    .whereIn('path', paths)
    .select('id', 'path', 'status', 'case_id', 'owner_user_id', 'owner_task_id', 'form_id', 'field')) as UploadRow[]
  const byPath = new Map(rows.map((row) => [row.path, row]))
  const promote: number[] = []
  for (const [path, field] of wanted) {
    const row = byPath.get(path)
    if (row?.status === 'promoted' && Number(row.case_id) === input.caseId) continue
    const ok =
      row?.status === 'staged' && isUploader(row, input.uploader) && row.form_id === input.formId && row.field === field
    if (!ok) return path
    promote.push(row.id)
  }
  if (promote.length === 0) return null
  const changed = await trx
    .from('uploads')
    .whereIn('id', promote)
    .where('status', 'staged')
    .update({ status: 'promoted', case_id: input.caseId, promoted_at: new Date() })
  // Fewer rows than asked: another save or the orphan job took one since the select.
  return affectedRows(changed) === promote.length ? null : wanted[0][0]
}
