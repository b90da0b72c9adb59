import { createWriteStream } from 'node:fs'
import { lstat, mkdir, realpath, rename, rm } from 'node:fs/promises'
import { isAbsolute, join, relative } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { PluginDb, PluginServices } from '@tramita/plugin-api'
import { findFolder, folderSegments } from './folder_path.js'
import { diskName, numbered } from './names.js'
import { resolveOwner } from './owner.js'

export interface ExportSummary {
  files: number
  folders: number
  bytes: number
}

type Deps = Pick<PluginServices, 'db' | 'storage' | 'people'>

interface Item {
  id: number
  name: string
}

/** The folders and files directly in a folder (null: the owner's root), outside the trash, by name. */
async function content(db: PluginDb, ownerId: number, folderId: number | null) {
  const folders = db.table<Item>('folders').select('id', 'name').whereNull('trashed_at')
  const files = db.table<Item & { storage_key: string; size: number }>('files')
  files.select('id', 'name', 'storage_key', 'size').whereNull('trashed_at')
  if (folderId === null) {
    folders.whereNull('parent_id').where('creator_id', ownerId)
    files.whereNull('folder_id').where('owner_id', ownerId)
  } else {
    folders.where('parent_id', folderId)
    files.where('folder_id', folderId)
  }
  return { folders: await folders.orderBy('name').orderBy('id'), files: await files.orderBy('name').orderBy('id') }
}

/** A name for `wanted` in a folder being written, unique there even on a case-insensitive file system. */
function claim(used: Set<string>, wanted: string): string {
  for (let n = 1; ; n++) {
    const candidate = numbered(wanted, n)
    if (!used.has(candidate.toLowerCase())) {
      used.add(candidate.toLowerCase())
      return candidate
    }
  }
}

/**
 * `documents:export DIR`: the owner's library (or --folder of it) written under DIR as folders and files
 * holding each file's current version; the trash is left out. Names are made safe for file systems (no
 * separators, `..`, reserved or control characters; clashes numbered), every path is checked to stay
 * inside DIR, and a directory already there that is a link is refused rather than followed. A file
 * already at a path is replaced (written beside it first, then renamed over it).
 */
export async function exportTree(
  deps: Deps,
  dir: string,
  options: { folder?: string; owner?: string },
  out: (line: string) => void
): Promise<ExportSummary> {
  const owner = await resolveOwner(deps.people, options.owner)
  const segments = folderSegments(options.folder)
  const start = await findFolder(deps.db, owner.id, segments)
  if (segments.length > 0 && start === null) throw new Error(`${owner.username} has no folder ${segments.join('/')}`)
  await mkdir(dir, { recursive: true })
  const root = await realpath(dir)
  const summary: ExportSummary = { files: 0, folders: 0, bytes: 0 }
  out(`Exporting ${segments.length ? segments.join('/') : 'the library'} of ${owner.username} to ${root}`)

  const inside = (path: string) => {
    const rel = relative(root, path)
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
      throw new Error(`refused to write outside ${root}: ${path}`)
    return path
  }
  const visited = new Set<number>()

  const writeFolder = async (folderId: number | null, path: string): Promise<void> => {
    const { folders, files } = await content(deps.db, owner.id, folderId)
    const used = new Set<string>()
    for (const file of files) {
      const target = inside(join(path, claim(used, diskName(file.name, `file-${file.id}`))))
      const partial = `${target}.part-${process.pid}`
      try {
        await pipeline(
          Readable.from(await deps.storage.read(file.storage_key)),
          createWriteStream(partial, { flags: 'wx' })
        )
        await rename(partial, target)
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
      summary.files++
      summary.bytes += Number(file.size)
      out(`[${summary.files}] ${relative(root, target)}`)
    }
    for (const folder of folders) {
      if (visited.has(folder.id)) continue
      visited.add(folder.id)
      const target = inside(join(path, claim(used, diskName(folder.name, `folder-${folder.id}`))))
      const existing = await lstat(target).catch(() => null)
      if (existing && (!existing.isDirectory() || existing.isSymbolicLink())) {
        throw new Error(`${target} exists and is not a folder (links are not followed)`)
      }
      if (!existing) await mkdir(target)
      summary.folders++
      await writeFolder(folder.id, target)
    }
  }

  await writeFolder(start, root)
  out(`Done: ${summary.files} file(s), ${summary.folders} folder(s), ${summary.bytes} bytes`)
  return summary
}
