import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { uploadTempDir } from '#lib/paths'

/** The name every request's folder starts with (mkdtemp adds the rest). */
export const REQUEST_FOLDER_PREFIX = 'request-'

/** A request folder older than this was left by a process that ended mid-request (a crash, a SIGKILL). */
export const ABANDONED_REQUEST_MS = 24 * 3_600_000

/**
 * Removes the request folders a killed process left in `dir` (each node sweeps its own: the data dir is
 * per node, and a folder this old belongs to no live request even where nodes share one). Resolves with
 * how many went.
 */
export async function sweepAbandonedRequests(dir = uploadTempDir(), now = Date.now()): Promise<number> {
  let removed = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || !entry.name.startsWith(REQUEST_FOLDER_PREFIX)) continue
    const path = join(dir, entry.name)
    const changed = await stat(path).then(
      (s) => s.mtimeMs,
      () => now
    )
    if (now - changed < ABANDONED_REQUEST_MS) continue
    await rm(path, { recursive: true, force: true })
    removed++
  }
  return removed
}
