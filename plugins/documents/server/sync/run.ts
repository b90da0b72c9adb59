import { createHash, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  PluginFailure,
  type AgentFileEntry,
  type AgentFilesCapability,
  type AgentFilesError,
  type PluginContext,
  type PluginPrincipal,
} from '@tramita/plugin-api'
import { extensionOf } from '../cli/names.js'
import { pdfPages } from '../library/pdf_pages.js'
import { indexFile, unindexFile } from '../library/search_row.js'
import { addFile, addVersion } from '../library/uploads.js'
import { assertRoom, documentsSettings, lockOwner, usageOf } from '../library/usage.js'
import { agentFiles, errorKey } from './bind.js'
import { folderForDir, pathHash, readTree, syncablePath, type Tree, type TreeFile } from './tree.js'

/**
 * One sync of a synchronized folder: a three-way comparison of the agent's files, the library's and
 * their state at the last sync (documents_sync_entries).
 * - changed on the agent only: a new version (a new file: a new document, its sub-folders made);
 * - changed in the library only (new version, renamed, moved, trashed): written to / removed on the agent;
 * - changed on both: both kept, the agent's copy as "name (agent conflict YYYY-MM-DD).ext" (on both
 *   sides), said in the folder's activity;
 * - deleted on the agent: the document goes to the trash (recoverable); deleted in the library: removed
 *   on the agent.
 * One run at a time per folder (a lease on its row); each library write re-reads the version it depends
 * on under a row lock, and the state moves with it, so a run repeated finds nothing to do.
 */

export type SyncDeps = Pick<PluginContext, 'db' | 'storage' | 'settings' | 'capabilities' | 'logger' | 'audit'>

export interface SyncSummary {
  state: 'done' | 'busy' | 'gone' | 'failed'
  pulled: number
  pushed: number
  trashed: number
  removed: number
  conflicts: number
  error?: string
}

interface Entry {
  rel_path: string
  file_id: number | null
  version: number | null
  agent_size: number
  agent_mtime_ms: number
}

const LEASE_MS = 30 * 60_000
/** Runs one job makes at most when asked again while it runs (the next ask queues another job). */
const MAX_PASSES = 3

class AgentOff extends Error {}

/** Takes the folder's lease when no run holds it (an expired one is taken over). */
async function takeLease(deps: SyncDeps, folderId: number): Promise<boolean> {
  const now = new Date()
  const taken = await deps.db
    .table('folders')
    .where('id', folderId)
    .where((q) => q.whereNull('sync_lease_until').orWhere('sync_lease_until', '<', now))
    .update({ sync_lease_until: new Date(now.getTime() + LEASE_MS) })
  return Number(taken) > 0
}

function ownerPrincipal(userId: number): PluginPrincipal {
  return { userId, roles: [], roleIds: [], areaIds: [], impersonatorId: null, language: 'es' }
}

function conflictName(name: string, now: Date): string {
  const dot = name.lastIndexOf('.')
  const stem = dot > 0 ? name.slice(0, dot) : name
  const ext = dot > 0 ? name.slice(dot) : ''
  return `${stem} (agent conflict ${now.toISOString().slice(0, 10)})${ext}`
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export async function syncFolder(deps: SyncDeps, folderId: number): Promise<SyncSummary> {
  const summary: SyncSummary = { state: 'done', pulled: 0, pushed: 0, trashed: 0, removed: 0, conflicts: 0 }
  const folder = (await deps.db.table('folders').where('id', folderId).first()) as {
    id: number
    type: string
    path: string | null
    agent_id: number | null
    creator_id: number | null
    trashed_at: unknown
  } | null
  if (!folder || folder.type !== 'synchronized' || folder.trashed_at || !folder.path || !folder.agent_id) {
    return { ...summary, state: 'gone' }
  }
  if (folder.creator_id === null) return { ...summary, state: 'gone' }
  const files = agentFiles(deps)
  const finish = async (error: AgentFilesError | null) => {
    await deps.db
      .table('folders')
      .where('id', folderId)
      .update({
        ...(error ? {} : { synced_at: new Date() }),
        sync_error: error ? errorKey(error).replace(/^documents\./, '') : null,
        sync_lease_until: null,
      })
    await deps.db.table('folders').where('id', folderId).increment('sync_runs')
  }
  if (!files) {
    await finish('offline')
    return { ...summary, state: 'failed', error: 'offline' }
  }
  if (!(await takeLease(deps, folderId))) {
    // Another run holds the folder: it is told to run once more, unless it let go meanwhile.
    await deps.db.table('folders').where('id', folderId).update({ sync_requested_at: new Date() })
    if (!(await takeLease(deps, folderId))) return { ...summary, state: 'busy' }
  }
  for (let pass = 1; ; pass++) {
    const started = Date.now()
    const run = new Run(deps, files, folderId, Number(folder.agent_id), folder.path, Number(folder.creator_id), summary)
    try {
      await run.sync()
      await finish(null)
    } catch (error) {
      const code: AgentFilesError = error instanceof AgentOff ? (error.message as AgentFilesError) : 'failed'
      if (!(error instanceof AgentOff))
        deps.logger.warn(`documents: sync of folder ${folderId} failed: ${(error as Error).message}`)
      await finish(code)
      return { ...summary, state: 'failed', error: code }
    }
    // Asked again while this pass ran (a second's margin: MariaDB keeps whole seconds)? Once more, if
    // the lease is still free; the lease was let go first, so a request is either seen here or its own
    // run takes the lease.
    if (pass >= MAX_PASSES) return summary
    const row = (await deps.db.table('folders').select('sync_requested_at').where('id', folderId).first()) as {
      sync_requested_at: unknown
    } | null
    const asked = row?.sync_requested_at ? new Date(row.sync_requested_at as string).getTime() : 0
    if (asked < started - 1000 || !(await takeLease(deps, folderId))) return summary
  }
}

class Run {
  private readonly owner: PluginPrincipal
  private tree!: Tree
  private dir!: string
  private maxBytes = 0
  private leaseRenewed = Date.now()

  constructor(
    private readonly deps: SyncDeps,
    private readonly files: AgentFilesCapability,
    private readonly folderId: number,
    private readonly agentId: number,
    private readonly root: string,
    ownerId: number,
    private readonly summary: SyncSummary
  ) {
    this.owner = ownerPrincipal(ownerId)
  }

  async sync(): Promise<void> {
    this.maxBytes = (await documentsSettings(this.deps.settings)).maxUploadBytes
    const listed = await this.files.list(this.agentId, this.root)
    if ('error' in listed) throw new AgentOff(listed.error)
    const agent = new Map(listed.files.filter((f) => syncablePath(f.path)).map((f) => [f.path, f]))
    this.tree = await readTree(this.deps.db, this.folderId)
    const entries = (await this.deps.db.table('sync_entries').where('folder_id', this.folderId)) as Entry[]
    const seenAgent = new Set<string>()
    const seenFiles = new Set<number>()
    this.dir = await mkdtemp(join(tmpdir(), 'tramita-sync-'))
    try {
      for (const entry of entries) {
        const rel = entry.rel_path
        const a = agent.get(rel)
        const t = entry.file_id === null ? undefined : this.tree.byId.get(Number(entry.file_id))
        seenAgent.add(rel)
        if (t) seenFiles.add(t.id)
        await this.reconcile(entry, a, t)
        await this.keepLease()
      }
      for (const [rel, a] of agent) {
        if (seenAgent.has(rel)) continue
        const t = this.tree.byRel.get(rel)
        if (t && seenFiles.has(t.id)) continue
        if (t) {
          // Both sides have a file here that was never synced: the same bytes are one file, else both kept.
          seenFiles.add(t.id)
          await this.conflict(a, t, true)
        } else {
          await this.pull(a, null)
        }
        await this.keepLease()
      }
      for (const t of this.tree.byId.values()) {
        if (!seenFiles.has(t.id) && !agent.has(t.rel)) await this.push(t)
        await this.keepLease()
      }
    } finally {
      await rm(this.dir, { recursive: true, force: true })
    }
  }

  /** A long run keeps its lease (renewed each minute): another run does not take the folder over. */
  private async keepLease(): Promise<void> {
    if (Date.now() - this.leaseRenewed < 60_000) return
    this.leaseRenewed = Date.now()
    await this.deps.db
      .table('folders')
      .where('id', this.folderId)
      .update({ sync_lease_until: new Date(Date.now() + LEASE_MS) })
  }

  /** One file the last sync knew: what changed on each side since, and what to do about it. */
  private async reconcile(entry: Entry, a: AgentFileEntry | undefined, t: TreeFile | undefined): Promise<void> {
    const rel = entry.rel_path
    const agentChanged = !a || a.size !== Number(entry.agent_size) || a.mtimeMs !== Number(entry.agent_mtime_ms)
    if (entry.file_id === null) {
      // The library refused this file: tried again only when it changes, forgotten when it goes.
      if (!a) await this.dropEntry(rel)
      else if (agentChanged) await this.pull(a, null)
      return
    }
    const libraryChanged = !!t && (t.version !== Number(entry.version) || t.rel !== rel)
    if (!agentChanged && t && !libraryChanged) return
    if (!agentChanged) {
      // Changed in the library only.
      if (!t) return this.removeOnAgent(rel)
      await this.push(t)
      if (t.rel !== rel) await this.removeOnAgent(rel)
      return
    }
    if (!a) {
      // Deleted on the agent: to the trash when the library has nothing newer (an archived one stays).
      if (!t) return this.dropEntry(rel)
      if (!libraryChanged && !t.archived && (await this.trash(t))) return this.dropEntry(rel)
      await this.push(t)
      if (t.rel !== rel) await this.dropEntry(rel)
      return
    }
    // Changed on the agent.
    if (!t || (!libraryChanged && !t.archived)) {
      await this.pull(a, t ?? null)
      return
    }
    await this.conflict(a, t, false)
    if (t.rel !== rel) await this.removeOnAgent(rel)
  }

  private check<T>(answer: T | { error: AgentFilesError }): answer is T {
    if (typeof answer === 'object' && answer !== null && 'error' in answer) {
      if (answer.error === 'offline') throw new AgentOff('offline')
      return false
    }
    return true
  }

  private async setEntry(rel: string, fileId: number | null, version: number | null, seen: AgentFileEntry) {
    await this.deps.db.transaction(async (trx) => {
      await trx.table('sync_entries').where('folder_id', this.folderId).where('path_hash', pathHash(rel)).delete()
      await trx.table('sync_entries').insert({
        folder_id: this.folderId,
        path_hash: pathHash(rel),
        rel_path: rel,
        file_id: fileId,
        version,
        agent_size: seen.size,
        agent_mtime_ms: seen.mtimeMs,
        updated_at: new Date(),
      })
    })
  }

  private async dropEntry(rel: string) {
    await this.deps.db
      .table('sync_entries')
      .where('folder_id', this.folderId)
      .where('path_hash', pathHash(rel))
      .delete()
  }

  private async event(
    kind: 'conflict' | 'refused' | 'error',
    rel: string,
    detail: string | null,
    fileId: number | null
  ) {
    await this.deps.db.table('sync_events').insert({
      folder_id: this.folderId,
      kind,
      rel_path: rel,
      detail: detail?.slice(0, 255) ?? null,
      file_id: fileId,
      created_at: new Date(),
    })
  }

  /** The library's current bytes of `t` written at its path on the agent. */
  private async push(t: TreeFile): Promise<void> {
    const written = await this.deps.storage.withLocalFile(t.storageKey, (path) =>
      this.files.write(this.agentId, this.root, t.rel, path)
    )
    if (!this.check(written)) return this.event('error', t.rel, written.error, t.id)
    await this.setEntry(t.rel, t.id, t.version, written)
    this.summary.pushed++
  }

  private async removeOnAgent(rel: string): Promise<void> {
    const removed = await this.files.remove(this.agentId, this.root, rel)
    if (!this.check(removed)) return this.event('error', rel, removed.error, null)
    await this.dropEntry(rel)
    this.summary.removed++
  }

  /** Moves `t` to the trash if it is still the version the comparison saw (else the next run sees why). */
  private async trash(t: TreeFile): Promise<boolean> {
    const done = await this.deps.db.transaction(async (trx) => {
      const row = await trx
        .table('files')
        .select('current_version', 'trashed_at', 'archived_at')
        .where('id', t.id)
        .forUpdate()
        .first()
      if (!row || row.trashed_at !== null || row.archived_at !== null || Number(row.current_version) !== t.version) {
        return false
      }
      await trx
        .table('files')
        .where('id', t.id)
        .update({ trashed_at: new Date(), trashed_by: this.owner.userId, trashed_with: null })
      await unindexFile(trx, t.id)
      return true
    })
    if (done) this.summary.trashed++
    return done
  }

  /** The agent's file into a local temporary copy (null when it is refused: too large, gone meanwhile). */
  private async fetch(a: AgentFileEntry): Promise<{ path: string; seen: AgentFileEntry } | null> {
    const path = join(this.dir, randomUUID())
    const read = await this.files.read(this.agentId, this.root, a.path, path, this.maxBytes)
    if (!this.check(read)) {
      if (read.error === 'too_large') await this.refused(a, 'documents.file_too_large')
      else await this.event('error', a.path, read.error, null)
      return null
    }
    return { path, seen: read }
  }

  private async refused(a: AgentFileEntry, reason: string) {
    await this.event('refused', a.path, reason, null)
    await this.setEntry(a.path, null, null, a)
  }

  /**
   * The agent's file as a new version of `into` (still at the version compared), or as a new document
   * at its path (or under `name`); answers the document's id and version, or null when refused.
   */
  private async pull(
    a: AgentFileEntry,
    into: TreeFile | null,
    name?: string,
    local?: { path: string; seen: AgentFileEntry }
  ) {
    const fetched = local ?? (await this.fetch(a))
    if (!fetched) return null
    const slash = a.path.lastIndexOf('/')
    const dir = slash < 0 ? '' : a.path.slice(0, slash)
    const wanted = name ?? a.path.slice(slash + 1)
    const stored = await this.deps.storage.putUpload({
      name: wanted,
      extension: extensionOf(wanted),
      size: fetched.seen.size,
      clientType: null,
      tmpPath: fetched.path,
    })
    if (!('key' in stored)) {
      await this.refused(a, stored.reason)
      return null
    }
    try {
      const pages = await pdfPages(this.deps.storage, stored)
      const folderId = into
        ? into.folderId
        : await folderForDir(this.deps.db, this.tree, this.folderId, this.owner.userId, dir)
      const settings = await documentsSettings(this.deps.settings)
      const written = await this.deps.db.transaction(async (trx) => {
        if (into) {
          const row = await trx
            .table('files')
            .select('owner_id', 'current_version', 'trashed_at')
            .where('id', into.id)
            .forUpdate()
            .first()
          if (!row || row.trashed_at !== null || Number(row.current_version) !== into.version) return null
          await lockOwner(trx, Number(row.owner_id))
          assertRoom(await usageOf(trx, settings, Number(row.owner_id)), stored.size)
          const added = await addVersion(trx, this.owner, into.id, into.name, extensionOf(into.name), stored, pages)
          return { ...added, name: into.name }
        }
        await lockOwner(trx, this.owner.userId)
        assertRoom(await usageOf(trx, settings, this.owner.userId), stored.size)
        const added = await addFile(trx, this.owner, folderId, wanted, extensionOf(wanted), stored, pages)
        const row = await trx.table('files').select('name').where('id', added.fileId).first()
        return { ...added, name: String(row.name) }
      })
      if (!written) {
        // The library moved on since the comparison: the next run decides with what it has now.
        await this.deps.storage.delete(stored.key)
        return null
      }
      await indexFile(this.deps.db, written.fileId)
      const rel = dir ? `${dir}/${written.name}` : written.name
      if (!name) await this.setEntry(a.path, written.fileId, written.version, fetched.seen)
      this.summary.pulled++
      return { fileId: written.fileId, version: written.version, rel }
    } catch (error) {
      await this.deps.storage.delete(stored.key)
      if (!(error instanceof PluginFailure)) throw error
      await this.refused(a, error.message)
      return null
    }
  }

  /**
   * Both sides changed `t` (or, `untracked`, both have a file at one path never synced): the library's
   * stays at its path (written to the agent), the agent's becomes a new document beside it named as a
   * conflict, and goes to the agent under that name too. The same bytes on both sides are no conflict.
   */
  private async conflict(a: AgentFileEntry, t: TreeFile, untracked: boolean): Promise<void> {
    const fetched = await this.fetch(a)
    if (!fetched) return
    if ((await sha256Of(fetched.path)) === t.sha256 && t.rel === a.path) {
      await this.setEntry(a.path, t.id, t.version, fetched.seen)
      return
    }
    const now = new Date()
    const made = await this.pull(a, null, conflictName(a.path.slice(a.path.lastIndexOf('/') + 1), now), fetched)
    if (!made) return
    this.summary.pulled--
    this.summary.conflicts++
    const copy = await this.files.write(this.agentId, this.root, made.rel, fetched.path)
    if (this.check(copy)) await this.setEntry(made.rel, made.fileId, made.version, copy)
    await this.push(t)
    await this.event('conflict', a.path, made.rel, made.fileId)
    await this.deps.audit.record(
      this.owner,
      'sync_conflict',
      { type: 'folder', id: this.folderId },
      {
        path: a.path,
        kept: t.id,
        copy: made.fileId,
        untracked,
      }
    )
  }
}
