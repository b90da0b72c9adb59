import type { PluginPrincipal, PluginServices } from '@tramita/plugin-api'
import type { DocumentInfo, FolderInfo, OperationPerson } from '../../shared/operations.js'
import { requirePermission } from '../sharing/access.js'
import { isoDate, summary } from '../search/search.js'
import { asOperation, failure } from './failures.js'
import { parseId } from './input.js'
import { pathNames, subtree } from './tree.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

const MB = 1024 * 1024
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100

async function person(deps: Deps, id: number | null): Promise<OperationPerson | null> {
  if (id === null) return null
  const found = (await deps.people.byIds([id])).get(id)
  return { id, name: found?.name ?? '' }
}

async function sharesOf(deps: Deps, type: 'file' | 'folder', id: number): Promise<number> {
  const rows = await deps.db.table('shares').where('subject_type', type).where('subject_id', id).count('id', 'n')
  return Number(rows[0]?.n ?? 0)
}

/** info_doc: a file the caller may read, with its facts, where it is, its labels and how many shares it has. */
export function documentInfo(deps: Deps, who: PluginPrincipal, idField?: string): Promise<DocumentInfo> {
  return asOperation('search', async () => {
    const id = parseId('search', idField)
    const access = await requirePermission(deps, who, { type: 'file', id }, 'read')
    const file = await deps.db.table('files').where('id', id).first()
    if (!file) throw failure('search', 404, 'access_not_found')
    const versions = await deps.db.table('versions').where('file_id', id).count('id', 'n')
    const labels = await deps.db
      .table('labels')
      .select('name', 'color')
      .whereIn('id', deps.db.table('file_labels').select('label_id').where('file_id', id))
      .orderBy('name')
    return {
      ...summary(file),
      mb: mb(Number(file.size)),
      ocr_state: String(file.ocr_state),
      sub_type: file.sub_type ?? null,
      current_version: Number(file.current_version),
      versions: Number(versions[0]?.n ?? 0),
      owner: await person(deps, Number(file.owner_id)),
      created_at: isoDate(file.created_at),
      path: await pathNames(deps.db, file.folder_id === null ? null : Number(file.folder_id)),
      labels: labels.map((l: { name: string; color: string }) => ({ name: l.name, color: l.color })),
      shares: await sharesOf(deps, 'file', id),
      permission: access.permission!,
    }
  })
}

/** info_folder: a folder the caller may read, with what is under it at any depth (outside the trash). */
export function folderInfo(deps: Deps, who: PluginPrincipal, idField?: string): Promise<FolderInfo> {
  return asOperation('search', async () => {
    const id = parseId('search', idField)
    const access = await requirePermission(deps, who, { type: 'folder', id }, 'read')
    const folder = await deps.db.table('folders').where('id', id).first()
    if (!folder) throw failure('search', 404, 'access_not_found')
    const tree = access.trashed ? [{ id }] : await subtree(deps.db, id)
    const ids = tree.map((f) => f.id)
    const totals = await deps.db.raw<{
      files: number | string
      size: number | string | null
      pages: number | string | null
    }>(
      `SELECT COUNT(*) AS files, COALESCE(SUM(size), 0) AS size, COALESCE(SUM(pages), 0) AS pages
         FROM documents_files WHERE trashed_at IS NULL AND folder_id IN (${ids.map(() => '?').join(', ')})`,
      ids
    )
    const size = Number(totals[0]?.size ?? 0)
    return {
      id,
      name: String(folder.name),
      type: String(folder.type),
      parent_id: folder.parent_id === null ? null : Number(folder.parent_id),
      path: await pathNames(deps.db, id),
      owner: await person(deps, folder.creator_id === null ? null : Number(folder.creator_id)),
      created_at: isoDate(folder.created_at),
      updated_at: isoDate(folder.updated_at),
      files: Number(totals[0]?.files ?? 0),
      folders: tree.length - 1,
      size,
      mb: mb(size),
      pages: Number(totals[0]?.pages ?? 0),
      shares: await sharesOf(deps, 'folder', id),
      permission: access.permission!,
    }
  })
}
