import type { PluginPrincipal, PluginServices } from '@tramita/plugin-api'
import type { DocumentSummary, FolderSummary } from '../../shared/operations.js'
import { cleanName, nameTaken } from '../library/names.js'
import { requirePermission } from '../sharing/access.js'
import { isoDate, summary } from '../search/search.js'
import { writeSearchRow } from '../search/index_row.js'
import { asOperation, failure } from './failures.js'
import { parseId } from './input.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

/**
 * rename_doc: a file the caller may write gets a new name, unique in its folder among items outside the
 * trash. A name without the file's extension gets it back ("acta" → "acta.pdf"), so a download keeps
 * its type. Read, checked and written in one transaction.
 */
export function renameFile(
  deps: Deps,
  who: PluginPrincipal,
  idField?: string,
  nameField?: string
): Promise<DocumentSummary> {
  return asOperation('rename', async () => {
    const id = parseId('rename', idField)
    let name = cleanName(nameField)
    return deps.db.transaction(async (db) => {
      await requirePermission({ db }, who, { type: 'file', id }, 'all')
      const file = await db.table('files').where('id', id).forUpdate().first()
      if (!file || file.trashed_at !== null) throw failure('rename', 404, 'access_not_found')
      const extension = String(file.extension ?? '')
      if (extension && !name.toLowerCase().endsWith(`.${extension.toLowerCase()}`))
        name = cleanName(`${name}.${extension}`)
      const place = { folderId: file.folder_id, ownerId: file.owner_id }
      if (name.toLowerCase() !== String(file.name).toLowerCase() && (await nameTaken(db, 'files', place, name))) {
        throw failure('rename', 409, 'name_taken')
      }
      await db.table('files').where('id', id).update({ name, updated_at: new Date() })
      await db.table('files').where('id', id).increment('row_version')
      await writeSearchRow(db, id)
      return summary({ ...file, name, updated_at: new Date() })
    })
  })
}

/** rename_folder: as rename_doc, for a folder among its siblings. */
export function renameFolder(
  deps: Deps,
  who: PluginPrincipal,
  idField?: string,
  nameField?: string
): Promise<FolderSummary> {
  return asOperation('rename', async () => {
    const id = parseId('rename', idField)
    const name = cleanName(nameField)
    return deps.db.transaction(async (db) => {
      await requirePermission({ db }, who, { type: 'folder', id }, 'all')
      const folder = await db.table('folders').where('id', id).forUpdate().first()
      if (!folder || folder.trashed_at !== null) throw failure('rename', 404, 'access_not_found')
      const place = { folderId: folder.parent_id, ownerId: folder.creator_id }
      if (name.toLowerCase() !== String(folder.name).toLowerCase() && (await nameTaken(db, 'folders', place, name))) {
        throw failure('rename', 409, 'name_taken')
      }
      const now = new Date()
      await db.table('folders').where('id', id).update({ name, updated_at: now })
      await db.table('folders').where('id', id).increment('row_version')
      return {
        id,
        name,
        parent_id: folder.parent_id === null ? null : Number(folder.parent_id),
        type: String(folder.type),
        creator_id: folder.creator_id === null ? null : Number(folder.creator_id),
        updated_at: isoDate(now),
      }
    })
  })
}
