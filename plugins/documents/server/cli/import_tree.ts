import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { PluginPrincipal, PluginServices, StoredObject } from '@tramita/plugin-api'
import { pdfPages } from '../library/pdf_pages.js'
import { indexFile } from '../library/search_row.js'
import { folderFor, insertFile, addVersion } from './library_writes.js'
import { folderSegments } from './folder_path.js'
import { extensionOf, libraryName } from './names.js'
import { resolveOwner } from './owner.js'
import { walk } from './walk.js'

export interface ImportSummary {
  imported: number
  versions: number
  unchanged: number
  refused: number
  skipped: number
  folders: number
}

interface ImportRecord {
  id: number
  size: number | string
  mtime_ms: number | string
  sha256: string
  file_id: number
}

type Deps = Pick<PluginServices, 'db' | 'storage' | 'people'>

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`

/**
 * `documents:import DIR`: the tree under DIR into the owner's library (under --folder, made if missing),
 * folders as in the tree, each file checked and stored as an upload is. Each file imported is recorded
 * (documents_imports: relative path, size, modification time, SHA-256), so a rerun, or a run after one
 * was killed midway, stores each file once: a recorded file with the same size and time is passed by, one
 * whose bytes changed becomes a new version of the file it was imported as.
 *
 * The owner's quota is not applied: an operator's import is an administrator's act, and stopping halfway
 * through a tree at a quota would leave it half imported; the usage it adds shows in the owner's usage.
 */
export async function importTree(
  deps: Deps,
  dir: string,
  options: { folder?: string; owner?: string },
  out: (line: string) => void
): Promise<ImportSummary> {
  const root = await realpath(dir).catch(() => {
    throw new Error(`cannot read ${dir}`)
  })
  if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a folder`)
  const segments = folderSegments(options.folder)
  const owner = await resolveOwner(deps.people, options.owner)
  const as: PluginPrincipal = {
    userId: owner.id,
    roles: owner.roles,
    roleIds: owner.roleIds,
    areaIds: owner.areaIds,
    impersonatorId: null,
    language: owner.language,
  }
  const summary: ImportSummary = { imported: 0, versions: 0, unchanged: 0, refused: 0, skipped: 0, folders: 0 }

  let total = 0
  for await (const entry of walk(root)) if (entry.kind === 'file') total++
  out(`Importing ${total} file(s) from ${root} for ${owner.username}${options.folder ? ` into ${options.folder}` : ''}`)

  let targetId: number | null = null
  for (const name of segments) targetId = await folderFor(deps.db, owner.id, targetId, name)
  /** Library folder of each source folder walked (by relative path); absent: the folder was skipped. */
  const folders = new Map<string, number | null>([['', targetId]])

  let seen = 0
  for await (const entry of walk(root)) {
    const relative = entry.segments.join('/')
    const parent = folders.get(entry.segments.slice(0, -1).join('/'))
    if (parent === undefined) continue // inside a folder that was skipped (already reported)
    if (entry.kind === 'skipped') {
      summary.skipped++
      out(`  skipped ${relative}: ${entry.reason}`)
      continue
    }
    const name = libraryName(entry.segments.at(-1)!)
    if (entry.kind === 'folder') {
      if (name === null) {
        summary.skipped++
        out(`  skipped ${relative}/: not a usable folder name`)
        continue
      }
      folders.set(relative, await folderFor(deps.db, owner.id, parent, name))
      summary.folders++
      continue
    }
    seen++
    const progress = `[${seen}/${total}]`
    if (name === null) {
      summary.skipped++
      out(`${progress} skipped ${relative}: not a usable file name`)
      continue
    }
    const keyHash = createHash('sha256')
      .update(`${owner.id}\n${targetId ?? 0}\n${relative}`)
      .digest('hex')
    const recorded = await deps.db.table<ImportRecord>('imports').where('key_hash', keyHash).first()
    if (recorded && Number(recorded.size) === entry.size && Number(recorded.mtime_ms) === entry.mtimeMs) {
      summary.unchanged++
      // A rerun over a large tree still shows it is moving.
      if (seen % 1000 === 0) out(`${progress} already imported up to ${relative}`)
      continue
    }
    if (recorded && (await sha256Of(entry.path)) === recorded.sha256) {
      // Touched, not changed: remember the new time so the next run need not read it again.
      await deps.db
        .table('imports')
        .where('id', recorded.id)
        .update({ mtime_ms: entry.mtimeMs, updated_at: new Date() })
      summary.unchanged++
      continue
    }

    const stored = await deps.storage.putUpload({
      name,
      extension: extensionOf(name),
      size: entry.size,
      clientType: null,
      tmpPath: entry.path,
    })
    if (!('key' in stored)) {
      summary.refused++
      out(`${progress} refused ${relative}: ${stored.message}`)
      continue
    }
    let outcome: Outcome
    try {
      const pages = await pdfPages(deps.storage, stored)
      outcome = await record(deps, as, { targetId, folderId: parent, name, relative, keyHash }, entry, stored, pages)
    } catch (error) {
      // The rows were rolled back: the object they would have named goes too.
      await deps.storage.delete(stored.key)
      throw error
    }
    if (outcome.kind === 'duplicate') {
      await deps.storage.delete(stored.key)
      summary.unchanged++
      continue
    }
    await indexFile(deps.db, outcome.fileId)
    if (outcome.kind === 'version') summary.versions++
    else summary.imported++
    const what = outcome.kind === 'version' ? `new version ${outcome.number} of` : 'imported'
    out(`${progress} ${what} ${relative} (${bytes(stored.size)})${outcome.name !== name ? ` as ${outcome.name}` : ''}`)
  }
  out(
    `Done: ${summary.imported} imported, ${summary.versions} new version(s), ${summary.unchanged} already imported, ` +
      `${summary.refused} refused, ${summary.skipped} skipped; ${summary.folders} folder(s) walked`
  )
  return summary
}

type Outcome =
  | { kind: 'file'; fileId: number; name: string }
  | { kind: 'version'; fileId: number; name: string; number: number }
  | { kind: 'duplicate' }

interface Place {
  targetId: number | null
  folderId: number | null
  name: string
  relative: string
  keyHash: string
}

/**
 * The file's rows and its import record in one transaction, the record read again under a lock there: a
 * second import running at once (or a record written since) makes this one a duplicate, nothing written.
 */
function record(
  deps: Deps,
  owner: PluginPrincipal,
  place: Place,
  entry: { size: number; mtimeMs: number },
  stored: StoredObject,
  pages: number | null
): Promise<Outcome> {
  return deps.db.transaction(async (trx): Promise<Outcome> => {
    const now = new Date()
    const recorded = await trx.table<ImportRecord>('imports').where('key_hash', place.keyHash).forUpdate().first()
    if (recorded?.sha256 === stored.sha256) return { kind: 'duplicate' }
    const facts = { size: entry.size, mtime_ms: entry.mtimeMs, sha256: stored.sha256, updated_at: now }
    if (recorded) {
      const number = await addVersion(trx, owner, recorded.file_id, stored, pages)
      if (number !== null) {
        await trx.table('imports').where('id', recorded.id).update(facts)
        return { kind: 'version', fileId: recorded.file_id, name: place.name, number }
      }
      // The file it became is in the trash: the new bytes are imported as a new file.
      const file = await insertFile(trx, owner, place.folderId, place.name, stored, pages)
      await trx
        .table('imports')
        .where('id', recorded.id)
        .update({ ...facts, file_id: file.id })
      return { kind: 'file', fileId: file.id, name: file.name }
    }
    const file = await insertFile(trx, owner, place.folderId, place.name, stored, pages)
    await trx.table('imports').insert({
      key_hash: place.keyHash,
      owner_id: owner.userId,
      target_folder_id: place.targetId,
      relative_path: place.relative,
      ...facts,
      file_id: file.id,
      imported_at: now,
    })
    return { kind: 'file', fileId: file.id, name: file.name }
  })
}
