import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { newObjectKey } from '#services/storage'
import { filePathOf } from '#services/uploads/staging'

/**
 * A form's file as the upload route leaves it: its object under a server key and its `uploads` row,
 * staged by `ownerId` (or saved with `caseId`). Answers the path the route would have answered.
 */
export async function formFile(
  ownerId: number,
  name: string,
  bytes: string | Uint8Array,
  opts: { mime?: string; caseId?: number } = {}
): Promise<string> {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  const key = newObjectKey('files', ext)
  const body = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)
  await drive.use().put(key, body)
  const path = filePathOf(key)
  await db.table('uploads').insert({
    path,
    storage_key: key,
    real_name: name,
    ext,
    mime: opts.mime ?? 'text/plain',
    size: body.length,
    ip: '127.0.0.1',
    owner_user_id: ownerId,
    field: 'adjunto',
    foldertype: 'files',
    status: opts.caseId ? 'promoted' : 'staged',
    case_id: opts.caseId ?? null,
    created_at: new Date(),
  })
  return path
}
