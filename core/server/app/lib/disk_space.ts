import { statfs } from 'node:fs/promises'

/** A local disk had no room for a write (the exception handler answers 507 with a reason). */
export class StorageFull extends Error {
  readonly code = 'ENOSPC'
  constructor(cause: unknown, disk = 'the storage disk') {
    super(`no space left on ${disk}`, { cause })
  }
}

/**
 * After a write that failed, with its partial file removed: has the file system of `folder` less room
 * than `bytes`? For writers that lose a full disk's ENOSPC (the storage library reports an aborted
 * stream; the body parser may go on without its error), the disk itself is asked. False when it
 * cannot tell.
 */
export async function tooFullFor(folder: string, bytes: number): Promise<boolean> {
  try {
    const { bavail, bsize } = await statfs(folder)
    return bavail * bsize < bytes
  } catch {
    return false
  }
}
