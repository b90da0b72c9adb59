import { PluginFailure, type PluginDb, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import type { TrashAnswer } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { freeName } from './names.js'
import { indexFile, unindexFile } from './search_row.js'
import { addBytes, documentsSettings, usageOf } from './usage.js'

export type TrashDeps = Pick<PluginServices, 'db' | 'people' | 'settings' | 'jobs'>

export interface Items {
  files: number[]
  folders: number[]
}

/** Keys per `documents:purge` job. */
const PURGE_BATCH = 500

/** A folder's folders below it (not itself), however deep; `trashed` says whether to take trashed ones. */
async function descendants(db: PluginDb, rootId: number, trashed: 'live' | 'any'): Promise<number[]> {
  const found: number[] = []
  let level = [rootId]
  while (level.length) {
    const query = db.table('folders').select('id').whereIn('parent_id', level)
    if (trashed === 'live') query.whereNull('trashed_at')
    level = (await query).map((r: { id: number }) => r.id)
    found.push(...level)
  }
  return found
}

/**
 * Moves files and folders I may change to the trash (their owner's); a folder's content goes with it
 * and comes back with it. Everything is checked first: one bad id and nothing moves.
 */
export async function trashItems(deps: TrashDeps, who: PluginPrincipal, items: Items): Promise<TrashAnswer> {
  if (items.files.length + items.folders.length === 0) throw new PluginFailure('documents.nothing_selected', 400)
  const trashedFiles: number[] = []
  await deps.db.transaction(async (db) => {
    const access = { db }
    for (const [type, ids] of [
      ['file', items.files],
      ['folder', items.folders],
    ] as const) {
      for (const id of ids) {
        await requirePermission(access, who, { type, id }, 'all')
        const row = await db.table(`${type}s`).select('trashed_at').where('id', id).forUpdate().first()
        if (row.trashed_at !== null) throw new PluginFailure('documents.already_in_trash', 409)
      }
    }
    // An archived document (retention) is read-only: its folder does not take it to the trash either.
    for (const id of items.folders) {
      const archived = await db
        .table('files')
        .select('id')
        .whereIn('folder_id', [id, ...(await descendants(db, id, 'live'))])
        .whereNull('trashed_at')
        .whereNotNull('archived_at')
        .first()
      if (archived) throw new PluginFailure('documents.archived_inside', 409)
    }
    const now = new Date()
    const mark = { trashed_at: now, trashed_by: who.userId }
    for (const id of items.folders) {
      const below = await descendants(db, id, 'live')
      await db
        .table('folders')
        .where('id', id)
        .update({ ...mark, trashed_with: null })
      if (below.length)
        await db
          .table('folders')
          .whereIn('id', below)
          .update({ ...mark, trashed_with: id })
      const inside = await db
        .table('files')
        .select('id')
        .whereIn('folder_id', [id, ...below])
        .whereNull('trashed_at')
      const ids = inside.map((r: { id: number }) => r.id)
      if (ids.length)
        await db
          .table('files')
          .whereIn('id', ids)
          .update({ ...mark, trashed_with: id })
      trashedFiles.push(...ids)
    }
    if (items.files.length)
      await db
        .table('files')
        .whereIn('id', items.files)
        .update({ ...mark, trashed_with: null })
    trashedFiles.push(...items.files)
    for (const id of trashedFiles) await unindexFile(db, id)
  })
  return { ...items, usage: await usageOf(deps.db, await documentsSettings(deps.settings), who.userId) }
}

/** Checks that each item is one I trashed-as-owner at the top of my trash (not one that went with a folder). */
async function requireInMyTrash(db: PluginDb, who: PluginPrincipal, items: Items): Promise<void> {
  for (const [table, owner, ids] of [
    ['files', 'owner_id', items.files],
    ['folders', 'creator_id', items.folders],
  ] as const) {
    for (const id of ids) {
      const row = await db.table(table).select(owner, 'trashed_at', 'trashed_with').where('id', id).forUpdate().first()
      if (!row || row[owner] !== who.userId || row.trashed_at === null || row.trashed_with !== null) {
        throw new PluginFailure('documents.not_in_trash', 404)
      }
    }
  }
}

async function liveFolder(db: PluginDb, id: number | null): Promise<number | null> {
  if (id === null) return null
  const row = await db.table('folders').select('trashed_at').where('id', id).first()
  return row && row.trashed_at === null ? id : null
}

/**
 * Brings items back from my trash into the folder they were in, or my root when that folder is gone
 * or in the trash; a name now taken there gets " (2)" etc. Restoring twice fails the second time.
 */
export async function restoreItems(deps: TrashDeps, who: PluginPrincipal, items: Items): Promise<TrashAnswer> {
  if (items.files.length + items.folders.length === 0) throw new PluginFailure('documents.nothing_selected', 400)
  const restoredFiles: number[] = []
  await deps.db.transaction(async (db) => {
    await requireInMyTrash(db, who, items)
    const clear = { trashed_at: null, trashed_by: null, trashed_with: null }
    for (const id of items.folders) {
      const row = await db.table('folders').select('name', 'parent_id').where('id', id).first()
      const parentId = await liveFolder(db, row.parent_id)
      const name = await freeName(db, 'folders', { folderId: parentId, ownerId: who.userId }, row.name)
      await db
        .table('folders')
        .where('id', id)
        .update({ ...clear, parent_id: parentId, name })
      await db.table('folders').where('trashed_with', id).update(clear)
      const files = await db.table('files').select('id').where('trashed_with', id)
      await db.table('files').where('trashed_with', id).update(clear)
      restoredFiles.push(...files.map((r: { id: number }) => r.id))
    }
    for (const id of items.files) {
      const row = await db.table('files').select('name', 'folder_id').where('id', id).first()
      const folderId = await liveFolder(db, row.folder_id)
      const name = await freeName(db, 'files', { folderId, ownerId: who.userId }, row.name)
      await db
        .table('files')
        .where('id', id)
        .update({ ...clear, folder_id: folderId, name })
      restoredFiles.push(id)
    }
    for (const id of restoredFiles) await indexFile(db, id)
  })
  return { ...items, usage: await usageOf(deps.db, await documentsSettings(deps.settings), who.userId) }
}

/**
 * Deletes trashed items for good (rows in one transaction; their stored objects by `documents:purge`
 * jobs after it commits). Items trashed on their own inside a folder being deleted are kept and moved
 * to their owner's root, so nothing leaves the trash without being chosen.
 */
export async function deleteTrashed(db: PluginDb, items: Items): Promise<string[]> {
  const files = new Set(items.files)
  const folders = new Set(items.folders)
  for (const id of items.folders) {
    for (const below of await descendants(db, id, 'any')) folders.add(below)
  }
  if (folders.size) {
    // A folder below that did not go with its parent (trashed by itself, or live) is kept, with what
    // is below it, at its owner's root: nothing leaves the trash without being chosen.
    const below = [...folders].filter((id) => !items.folders.includes(id))
    const kept = below.length
      ? (await db.table('folders').select('id', 'trashed_with').whereIn('id', below)).filter(
          (r: { trashed_with: number | null }) => r.trashed_with === null || !folders.has(r.trashed_with)
        )
      : []
    for (const { id } of kept as { id: number }[]) {
      folders.delete(id)
      for (const under of await descendants(db, id, 'any')) folders.delete(under)
    }
    if (kept.length) {
      await db
        .table('folders')
        .whereIn(
          'id',
          kept.map((r: { id: number }) => r.id)
        )
        .update({ parent_id: null })
    }
    const gone = [...folders]
    const inside = await db.table('files').select('id', 'trashed_with').whereIn('folder_id', gone)
    const keptFiles: number[] = []
    for (const r of inside as { id: number; trashed_with: number | null }[]) {
      if (r.trashed_with !== null && folders.has(r.trashed_with)) files.add(r.id)
      else if (!files.has(r.id)) keptFiles.push(r.id)
    }
    if (keptFiles.length) await db.table('files').whereIn('id', keptFiles).update({ folder_id: null })
  }
  const fileIds = [...files]
  const keys = new Set<string>()
  if (fileIds.length) {
    // Locked first: a second emptying of the same items waits here, then finds them gone and frees nothing twice.
    const current = await db.table('files').select('id', 'owner_id', 'storage_key').whereIn('id', fileIds).forUpdate()
    const versions = await db
      .table('versions')
      .select('file_id', 'storage_key', 'size', 'ocr_key')
      .whereIn('file_id', fileIds)
    for (const f of current as { storage_key: string }[]) keys.add(f.storage_key)
    // A version's searchable PDF (OCR) goes with it; it was never counted in the quota.
    for (const v of versions as { ocr_key: string | null }[]) if (v.ocr_key) keys.add(v.ocr_key)
    // And the pages an unfinished OCR run kept until it joins them (their rows go with the file's runs).
    const pages = await db
      .table('ocr_pages')
      .select('storage_key')
      .whereNotNull('storage_key')
      .whereIn('run_id', db.table('ocr_runs').select('id').whereIn('file_id', fileIds))
    for (const p of pages as { storage_key: string }[]) keys.add(p.storage_key)
    // Each owner's running total gives back every object of theirs that goes (objects are never
    // shared between files: a copy stores its own).
    const ownerOf = new Map((current as { id: number; owner_id: number }[]).map((f) => [f.id, f.owner_id]))
    const freed = new Map<number, number>()
    const counted = new Set<string>()
    for (const v of versions as { file_id: number; storage_key: string; size: number | string }[]) {
      keys.add(v.storage_key)
      if (counted.has(v.storage_key)) continue
      counted.add(v.storage_key)
      const owner = ownerOf.get(v.file_id)!
      freed.set(owner, (freed.get(owner) ?? 0) + Number(v.size))
    }
    for (const [owner, bytes] of freed) await addBytes(db, owner, -bytes)
    await db.table('shares').where('subject_type', 'file').whereIn('subject_id', fileIds).delete()
    for (const id of fileIds) await unindexFile(db, id)
    await db.table('files').whereIn('id', fileIds).delete()
  }
  const gone = [...folders]
  if (gone.length) {
    await db.table('shares').where('subject_type', 'folder').whereIn('subject_id', gone).delete()
    // Only what is deleted is left in these folders, so the foreign keys' cascade takes nothing else.
    await db.table('folders').whereIn('id', gone).delete()
  }
  return [...keys]
}

/** Queues the deletion of stored objects no row names any more (the job checks again). */
export async function queuePurge(jobs: PluginServices['jobs'], keys: string[]): Promise<void> {
  for (let at = 0; at < keys.length; at += PURGE_BATCH) {
    await jobs.enqueue('documents:purge', { keys: keys.slice(at, at + PURGE_BATCH) })
  }
}

/** Empties my trash, or the chosen items of it. Emptying twice fails the second time (for chosen items). */
export async function emptyTrash(deps: TrashDeps, who: PluginPrincipal, chosen: Items): Promise<TrashAnswer> {
  const all = chosen.files.length + chosen.folders.length === 0
  const { items, keys } = await deps.db.transaction(async (db) => {
    let items = chosen
    if (all) {
      const top = (table: string, owner: string) =>
        db.table(table).select('id').where(owner, who.userId).whereNotNull('trashed_at').whereNull('trashed_with')
      items = {
        files: (await top('files', 'owner_id')).map((r: { id: number }) => r.id),
        folders: (await top('folders', 'creator_id')).map((r: { id: number }) => r.id),
      }
    } else {
      await requireInMyTrash(db, who, items)
    }
    return { items, keys: await deleteTrashed(db, items) }
  })
  await queuePurge(deps.jobs, keys)
  return { ...items, usage: await usageOf(deps.db, await documentsSettings(deps.settings), who.userId) }
}

/** Deletes stored objects that no file or version names, nor a version as its searchable PDF (idempotent). */
export async function purgeObjects(deps: Pick<PluginServices, 'db' | 'storage'>, keys: string[]): Promise<number> {
  let deleted = 0
  for (const key of keys) {
    const inVersions = await deps.db.table('versions').select('id').where('storage_key', key).first()
    const inFiles = await deps.db.table('files').select('id').where('storage_key', key).first()
    const inOcr = await deps.db.table('versions').select('id').where('ocr_key', key).first()
    const inOcrPages = await deps.db.table('ocr_pages').select('page').where('storage_key', key).first()
    if (inVersions || inFiles || inOcr || inOcrPages) continue
    await deps.storage.delete(key)
    deleted++
  }
  return deleted
}

/** The daily job: empties items trashed more than `trashDays` ago, whoever's they are. */
export async function purgeOldTrash(deps: Pick<PluginServices, 'db' | 'settings' | 'jobs'>, now = new Date()) {
  const settings = await documentsSettings(deps.settings)
  const cutoff = new Date(now.getTime() - settings.trashDays * 24 * 3600 * 1000)
  const keys = await deps.db.transaction(async (db) => {
    const old = (table: string) =>
      db.table(table).select('id').whereNotNull('trashed_at').whereNull('trashed_with').where('trashed_at', '<', cutoff)
    const items = {
      files: (await old('files')).map((r: { id: number }) => r.id),
      folders: (await old('folders')).map((r: { id: number }) => r.id),
    }
    return deleteTrashed(db, items)
  })
  await queuePurge(deps.jobs, keys)
  return { keys: keys.length }
}
