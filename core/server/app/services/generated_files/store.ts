import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { newObjectKey, type StorageFolder } from '#services/storage'
import { filePathOf, stageUploads, type NewUpload, type Uploader } from '#services/uploads/staging'

/**
 * Files the server makes (create_doc, dev_word_to_pdf, the ID card) go where uploads go: an object
 * under a server-generated key and an `uploads` row, so GET /data/files/<uuid>.<ext> and its access
 * rules serve them. With a case they are the case's at once (`promoted`); without one they are the
 * caller's `staged` file, as an upload is until a save attaches it.
 */

/**
 * The storage folder (key prefix and uploads.foldertype) of a case's generated PDFs. It is still
 * called 'documents', as before the documents plugin took that word: stored files keep their keys.
 */
export const GENERATED_FOLDER = 'documents' satisfies StorageFolder

export interface Generated {
  bytes: Uint8Array
  ext: string
  mime: string
  realName: string
  folder: StorageFolder
  owner: Uploader
  formId: number | null
  /** The file field it is for; '' for a document of the case itself. */
  field: string
  caseId: number | null
  ip: string
}

/** The stored file's client entry (spec 000 §3 "Uploaded file entry"). */
export interface StoredEntry {
  ext: string
  ip: string
  path: string
  real_name: string
  status: 'good'
}

export async function storeGenerated(file: Generated): Promise<StoredEntry> {
  const key = newObjectKey(file.folder, file.ext)
  const path = filePathOf(key)
  const row: NewUpload = {
    path,
    storage_key: key,
    real_name: file.realName,
    ext: file.ext,
    mime: file.mime,
    size: file.bytes.byteLength,
    ip: file.ip.slice(0, 45),
    owner_user_id: file.owner.userId,
    owner_task_id: file.owner.taskId,
    form_id: file.formId,
    field: file.field,
    foldertype: file.folder,
  }
  // Staged (row first, then the object), as uploads are; then the case's, when it has one.
  await stageUploads([row], () => drive.use().put(key, file.bytes, { contentType: file.mime }))
  if (file.caseId !== null) {
    await db
      .from('uploads')
      .where('path', path)
      .update({ status: 'promoted', case_id: file.caseId, promoted_at: new Date() })
  }
  return { ext: file.ext, ip: file.ip.slice(0, 45), path, real_name: file.realName, status: 'good' }
}

/** The path of the case's newest generated document ('' when none): the form's doc tab shows it. */
export async function latestCaseDocument(caseId: number): Promise<string> {
  const row = (await db
    .from('uploads')
    .where('case_id', caseId)
    .where('status', 'promoted')
    .where('foldertype', GENERATED_FOLDER)
    .orderBy('id', 'desc')
    .select('path')
    .first()) as { path: string } | null
  return row?.path ?? ''
}
