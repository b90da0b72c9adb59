import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (core/server/app/lib → four levels up). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')

/**
 * The data directory: `TRAMITA_DATA_DIR` (relative paths resolve against the working directory),
 * else `data/` at the repository root. It holds the SQLite file, stored files, the mail outbox and
 * the generated app key, and is created on first use because SQLite will not create its folder.
 */
export function dataDir(): string {
  const dir = process.env.TRAMITA_DATA_DIR
    ? resolve(process.cwd(), process.env.TRAMITA_DATA_DIR)
    : resolve(REPO_ROOT, 'data')
  mkdirSync(dir, { recursive: true })
  return dir
}

export function dataPath(...parts: string[]): string {
  const path = resolve(dataDir(), ...parts)
  mkdirSync(dirname(path), { recursive: true })
  return path
}

/** A folder inside the data dir, created when missing. */
export function dataSubdir(...parts: string[]): string {
  const dir = resolve(dataDir(), ...parts)
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * Where the body parser writes a request's files before any controller runs (a folder per request,
 * app/plugins/body_parser_middleware.ts). In the data dir rather than the system's temporary folder
 * (often small, a RAM disk, or shared with other programs), so an operator can place it: mount a disk
 * of its own here. Created when missing.
 */
export function uploadTempDir(): string {
  return dataSubdir('tmp', 'uploads')
}
