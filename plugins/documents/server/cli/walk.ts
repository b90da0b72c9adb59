import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'

export type Entry =
  | { kind: 'folder'; segments: string[] }
  | { kind: 'file'; segments: string[]; path: string; size: number; mtimeMs: number }
  | { kind: 'skipped'; segments: string[]; reason: string }

/**
 * The tree under `root`, depth first, each folder before its content, names in code-point order (so a
 * rerun walks the same way). Symbolic links are not followed (one could lead outside the tree) and
 * sockets, devices and pipes are skipped: each is reported as skipped.
 */
export async function* walk(root: string, segments: string[] = []): AsyncGenerator<Entry> {
  const names = (await readdir(join(root, ...segments))).sort()
  for (const name of names) {
    const here = [...segments, name]
    const path = join(root, ...here)
    const stat = await lstat(path)
    if (stat.isSymbolicLink()) yield { kind: 'skipped', segments: here, reason: 'symbolic link (not followed)' }
    else if (stat.isDirectory()) {
      yield { kind: 'folder', segments: here }
      yield* walk(root, here)
    } else if (stat.isFile())
      yield { kind: 'file', segments: here, path, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) }
    else yield { kind: 'skipped', segments: here, reason: 'not a regular file' }
  }
}
