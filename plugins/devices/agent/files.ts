import { constants, createWriteStream, openAsBlob, watch, type FSWatcher } from 'node:fs'
import { access, lstat, mkdir, readdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises'
import { isAbsolute, join, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { AgentFileEntry, AgentFilesError } from '@tramita/plugin-api'
import { AGENT_FILES_PATH, FILES_TRANSFER_MS, type AgentMessage, type FilesOrder } from '../shared/protocol.js'

/**
 * The agent's side of a synchronized folder (devices.files): checks, lists, reads, writes and removes
 * files under a root the server names in each call, and watches the roots the server binds. Nothing
 * outside a root is served: a relative path with `..`, an absolute one, or one that reaches a symlink
 * is refused, and what exists is compared by its real path. Answers go over HTTP (AGENT_FILES_PATH).
 */

export interface FilesOptions {
  server: string
  token: string
  send: (message: AgentMessage) => boolean
  log: (line: string) => void
  /** Quiet time after the last change under a root before the server is told (default 1 s). */
  debounceMs?: number
  /** `--files-root`: roots are served only under these (empty: any this user may use). */
  allowedRoots?: string[]
}

/** Directories deeper than this, and more files than this, are not listed (a runaway tree). */
const MAX_DEPTH = 40
const MAX_FILES = 100_000

class Refused extends Error {
  constructor(readonly code: AgentFilesError) {
    super(code)
  }
}

function codeOf(error: unknown): AgentFilesError {
  if (error instanceof Refused) return error.code
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'not_found'
  if (code === 'ENOTDIR') return 'not_directory'
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'no_permission'
  return 'failed'
}

/** The segments of a relative path, or a refusal when it could leave its root. */
function segments(relPath: string): string[] {
  if (!relPath || isAbsolute(relPath) || relPath.includes('\0')) throw new Refused('outside_root')
  const parts = relPath.split('/')
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) throw new Refused('outside_root')
  return parts
}

/** Is `path` the directory `base` or under it (both real paths)? */
function within(base: string, path: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep)
}

/**
 * The root's real path, checked to be a directory this process may read and write, under one of the
 * roots the agent's owner allowed (`--files-root`) when they named any.
 */
async function realRoot(root: string, allowed: readonly string[] = []): Promise<string> {
  if (!isAbsolute(root)) throw new Refused('not_found')
  const info = await stat(root)
  if (!info.isDirectory()) throw new Refused('not_directory')
  await access(root, constants.R_OK | constants.W_OK | constants.X_OK)
  const real = await realpath(root)
  if (allowed.length) {
    const bases = await Promise.all(allowed.map((a) => realpath(a).catch(() => null)))
    if (!bases.some((base) => base !== null && within(base, real))) throw new Refused('no_permission')
  }
  return real
}

/**
 * `root/relPath` with every directory on the way checked not to be a symlink (made when `make`), and
 * the result's real parent inside the root: a link swapped in meanwhile cannot lead outside.
 */
async function inside(root: string, relPath: string, make: boolean, allowed: readonly string[]): Promise<string> {
  const base = await realRoot(root, allowed)
  const parts = segments(relPath)
  let dir = base
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part)
    const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && make) return null
      throw error
    })
    if (info === null) await mkdir(dir)
    else if (info.isSymbolicLink()) throw new Refused('outside_root')
    else if (!info.isDirectory()) throw new Refused('not_directory')
  }
  const parent = await realpath(dir)
  if (!within(base, parent)) throw new Refused('outside_root')
  return join(parent, parts[parts.length - 1]!)
}

/** A regular file's entry (not a symlink, not a directory). */
async function entryOf(path: string, relPath: string): Promise<AgentFileEntry> {
  const info = await lstat(path)
  if (info.isSymbolicLink()) throw new Refused('outside_root')
  if (!info.isFile()) throw new Refused('not_found')
  return { path: relPath, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) }
}

async function list(root: string, allowed: readonly string[]): Promise<AgentFileEntry[]> {
  const base = await realRoot(root, allowed)
  const found: AgentFileEntry[] = []
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return
    for (const item of await readdir(dir, { withFileTypes: true })) {
      if (item.name.startsWith('.') || found.length >= MAX_FILES) continue
      const path = join(dir, item.name)
      const relPath = rel ? `${rel}/${item.name}` : item.name
      // Symlinks are neither followed nor listed: they could lead out of the root.
      if (item.isDirectory()) await walk(path, relPath, depth + 1).catch(() => undefined)
      else if (item.isFile()) {
        const info = await lstat(path).catch(() => null)
        if (info?.isFile()) found.push({ path: relPath, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) })
      }
    }
  }
  await walk(base, '', 0)
  return found
}

export class AgentFiles {
  private watchers = new Map<string, FSWatcher>()
  private pending = new Map<string, NodeJS.Timeout>()
  private running = new Set<Promise<void>>()

  private readonly allowed: readonly string[]

  constructor(private readonly options: FilesOptions) {
    this.allowed = options.allowedRoots ?? []
  }

  take(order: FilesOrder): void {
    const work = this.run(order).finally(() => this.running.delete(work))
    this.running.add(work)
  }

  async idle(): Promise<void> {
    await Promise.allSettled([...this.running])
  }

  /** Watches exactly these roots (fs.watch, recursive); a root that cannot be watched is logged and left. */
  watch(roots: string[]): void {
    for (const [root, watcher] of this.watchers) {
      if (!roots.includes(root)) {
        watcher.close()
        this.watchers.delete(root)
      }
    }
    for (const root of roots) {
      if (this.watchers.has(root) || !isAbsolute(root)) continue
      try {
        const watcher = watch(root, { recursive: true, persistent: false }, (_event, name) => {
          // Our own temporary files (and every dotfile) are not the folder's content.
          const last = typeof name === 'string' ? name.split(sep).pop() : undefined
          if (last?.startsWith('.')) return
          this.changed(root)
        })
        watcher.on('error', (error) => {
          this.options.log(`stopped watching ${root}: ${error.message}`)
          watcher.close()
          this.watchers.delete(root)
        })
        this.watchers.set(root, watcher)
      } catch (error) {
        this.options.log(`cannot watch ${root}: ${(error as Error).message}`)
      }
    }
  }

  stop(): void {
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
    for (const timer of this.pending.values()) clearTimeout(timer)
    this.pending.clear()
  }

  private changed(root: string) {
    clearTimeout(this.pending.get(root))
    this.pending.set(
      root,
      setTimeout(() => {
        this.pending.delete(root)
        this.options.send({ type: 'files_changed', root })
      }, this.options.debounceMs ?? 1000)
    )
  }

  private async run(order: FilesOrder): Promise<void> {
    const form = new FormData()
    try {
      switch (order.op) {
        case 'check':
          await realRoot(order.root, this.allowed)
          // Reading it proves the permission too (access() may say yes to root on a read-only mount).
          await readdir(order.root)
          break
        case 'list':
          // As a file part: a large tree's list is more than a form field holds.
          form.append(
            'files',
            new Blob([JSON.stringify(await list(order.root, this.allowed))], { type: 'application/json' }),
            'files.json'
          )
          break
        case 'read': {
          const path = await inside(order.root, order.path ?? '', false, this.allowed)
          const entry = await entryOf(path, order.path!)
          if (entry.size > (order.maxBytes ?? Infinity)) throw new Refused('too_large')
          form.append('entry', JSON.stringify(entry))
          form.append('file', await openAsBlob(path), 'file')
          break
        }
        case 'write':
          form.append('entry', JSON.stringify(await this.write(order)))
          break
        case 'remove': {
          const path = await inside(order.root, order.path ?? '', false, this.allowed).catch((error) => {
            if (codeOf(error) === 'not_found') return null
            throw error
          })
          const info = path ? await lstat(path).catch(() => null) : null
          if (path && info) {
            if (!info.isFile() && !info.isSymbolicLink()) throw new Refused('not_found')
            await unlink(path)
          }
          break
        }
      }
    } catch (error) {
      const code = codeOf(error)
      if (code === 'failed') this.options.log(`file call ${order.op} failed: ${(error as Error).message}`)
      form.delete('file')
      form.append('error', code)
    }
    await this.answer(order.id, form)
  }

  /** Downloads the server's bytes next to the target and renames them over it (never half a file). */
  private async write(order: FilesOrder): Promise<AgentFileEntry> {
    const path = await inside(order.root, order.path ?? '', true, this.allowed)
    const existing = await lstat(path).catch(() => null)
    if (existing && !existing.isFile()) throw new Refused(existing.isSymbolicLink() ? 'outside_root' : 'not_found')
    const response = await fetch(this.url(order.id), {
      headers: { token: this.options.token },
      signal: AbortSignal.timeout(FILES_TRANSFER_MS),
    })
    if (!response.ok || !response.body) throw new Error(`the server answered ${response.status}`)
    const temporary = join(resolve(path, '..'), `.tramita-${order.id}.tmp`)
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(temporary))
      await rename(temporary, path)
    } finally {
      await rm(temporary, { force: true })
    }
    return entryOf(path, order.path!)
  }

  private async answer(id: string, form: FormData): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const sent = await fetch(this.url(id), {
        method: 'POST',
        headers: { token: this.options.token },
        body: form,
        signal: AbortSignal.timeout(FILES_TRANSFER_MS),
      }).catch((error: Error) => error)
      if (!(sent instanceof Error) && sent.status < 500) return
      await new Promise((done) => setTimeout(done, 500 * attempt))
    }
    this.options.log(`file call ${id}: the answer could not be sent`)
  }

  private url(id: string): string {
    return new URL(AGENT_FILES_PATH.replace(':id', encodeURIComponent(id)), this.options.server).href
  }
}
