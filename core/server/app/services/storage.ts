import { randomUUID } from 'node:crypto'
import drive from '@adonisjs/drive/services/main'
import { CallFailure } from '#lib/envelope'

/** Top-level folders of stored objects (spec 000 §7 foldertype, plus generated documents). */
export const STORAGE_FOLDERS = ['images', 'signatures', 'files', 'documents', 'tmp'] as const
export type StorageFolder = (typeof STORAGE_FOLDERS)[number]

const EXTENSION = /^[a-z0-9]{1,10}$/

/**
 * A new object key: `<folder>/<yyyy>/<mm>/<uuid>.<ext>`. Keys are always made here, never taken from a
 * request, so a caller cannot choose, guess or traverse to another object; the original file name is
 * kept as data (real_name), not as the key.
 */
export function newObjectKey(folder: StorageFolder, extension: string, now = new Date()): string {
  if (!STORAGE_FOLDERS.includes(folder)) throw new CallFailure(`Unknown storage folder "${folder}"`)
  const ext = extension.replace(/^\./, '').toLowerCase()
  if (!EXTENSION.test(ext)) throw new CallFailure(`Invalid file extension "${extension.slice(0, 20)}"`)
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `${folder}/${now.getUTCFullYear()}/${month}/${randomUUID()}.${ext}`
}

/** Stores bytes under a new server-generated key on the configured disk (local or S3) and returns the key. */
export async function storeObject(folder: StorageFolder, extension: string, contents: Uint8Array | string) {
  const key = newObjectKey(folder, extension)
  await drive.use().put(key, contents)
  return key
}
