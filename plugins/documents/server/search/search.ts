import type { PluginDb, PluginPrincipal } from '@tramita/plugin-api'
import { OPERATION_LIMITS, type DocumentSummary, type FolderSummary } from '../../shared/operations.js'
import { foldText, fts5Query, mysqlQuery, queryTerms, wordStartRegex } from './text.js'

/**
 * Full-text search over documents_search, one interface for SQLite FTS5 and MariaDB FULLTEXT, limited
 * to the files the reader may read (sharing/access.ts's rule as one SQL set: owned, under a folder owned,
 * shared directly or under a shared folder, nothing in the trash), never checked row by row.
 */

/** Who reads: the principal with its role ids resolved (shares name roles by id). */
export interface SearchReader {
  userId: number
  areaIds: readonly number[]
  roleIds: readonly number[]
  /** A superuser reads everything outside the trash. */
  everything: boolean
}

export function searchReader(who: PluginPrincipal): SearchReader {
  return {
    userId: who.userId,
    areaIds: who.areaIds,
    roleIds: who.roleIds,
    everything: who.roles.includes('superuser'),
  }
}

export interface SearchOptions {
  /** The user's words; empty or absent: no text condition (the filters alone). */
  text?: string
  /** Only files in this folder (already checked readable by the caller) … */
  folderId?: number
  /** … or anywhere under it. */
  subfolders?: boolean
  /** Only files owned by this user. */
  creatorId?: number
  extensions?: readonly string[]
  /** Label names, each required. */
  labels?: readonly string[]
  /** Indexed metadata equal to these values (names already checked by the caller). */
  metadata?: Readonly<Record<string, string | number | boolean>>
  modifiedFrom?: Date
  modifiedTo?: Date
  limit: number
}

/** A CTE list and condition reaching the files the reader may read (alias `f`). */
export function readableSql(reader: SearchReader): {
  with: string[]
  withBindings: unknown[]
  where: string
  bindings: unknown[]
} {
  if (reader.everything) return { with: [], withBindings: [], where: 'f.trashed_at IS NULL', bindings: [] }
  const grantee: string[] = ["(grantee_type = 'user' AND grantee_id = ?)"]
  const granteeBindings: unknown[] = [reader.userId]
  if (reader.areaIds.length) {
    grantee.push(`(grantee_type = 'area' AND grantee_id IN (${reader.areaIds.map(() => '?').join(', ')}))`)
    granteeBindings.push(...reader.areaIds)
  }
  if (reader.roleIds.length) {
    grantee.push(`(grantee_type = 'role' AND grantee_id IN (${reader.roleIds.map(() => '?').join(', ')}))`)
    granteeBindings.push(...reader.roleIds)
  }
  const grants = `SELECT subject_id FROM documents_shares WHERE subject_type = ? AND (${grantee.join(' OR ')})`
  return {
    with: [
      `readable_folders (id) AS (
         SELECT id FROM documents_folders WHERE trashed_at IS NULL AND (creator_id = ? OR id IN (${grants}))
         UNION
         SELECT c.id FROM documents_folders c JOIN readable_folders r ON c.parent_id = r.id WHERE c.trashed_at IS NULL
       )`,
    ],
    withBindings: [reader.userId, 'folder', ...granteeBindings],
    where: `f.trashed_at IS NULL AND (f.owner_id = ? OR f.folder_id IN (SELECT id FROM readable_folders) OR f.id IN (${grants}))`,
    bindings: [reader.userId, 'file', ...granteeBindings],
  }
}

/**
 * A metadata row (alias `alias`) whose value in `column` equals `value`, compared as the engine reads
 * JSON back as text (SQLite writes true as 1). Column names are checked before: no quote or backslash.
 */
export function metadataEquals(
  dialect: PluginDb['dialect'],
  alias: string,
  column: string,
  value: string | number | boolean
): { sql: string; bindings: unknown[] } {
  const mysql = dialect === 'mysql'
  const read = mysql
    ? `JSON_UNQUOTE(JSON_EXTRACT(${alias}.\`values\`, ?))`
    : `CAST(json_extract(${alias}."values", ?) AS TEXT)`
  const text = typeof value === 'boolean' ? (mysql ? String(value) : value ? '1' : '0') : String(value)
  return { sql: `${read} = ?`, bindings: [`$."${column}"`, text] }
}

const FILE_SELECT =
  'f.id, f.name, f.extension, f.mime, f.size, f.pages, f.folder_id, f.owner_id, f.updated_at, f.archived_at'

interface FileHitRow {
  id: number
  name: string
  extension: string
  mime: string
  size: number | string
  pages: number | null
  folder_id: number | null
  owner_id: number
  updated_at: unknown
  archived_at?: unknown
}

/**
 * Narrows a search to a folder (`column` holds the item's folder) or, with `subfolders`, to the folder and
 * every folder under it not in the trash.
 */
function inFolder(
  opts: Pick<SearchOptions, 'folderId' | 'subfolders'>,
  column: string,
  sql: { ctes: string[]; cteBindings: unknown[]; where: string[]; bindings: unknown[] }
): void {
  if (opts.folderId === undefined) return
  if (!opts.subfolders) {
    sql.where.push(`${column} = ?`)
    sql.bindings.push(opts.folderId)
    return
  }
  sql.ctes.push(
    `scope_folders (id) AS (
       SELECT id FROM documents_folders WHERE id = ?
       UNION
       SELECT c.id FROM documents_folders c JOIN scope_folders s ON c.parent_id = s.id WHERE c.trashed_at IS NULL
     )`
  )
  sql.cteBindings.push(opts.folderId)
  sql.where.push(`${column} IN (SELECT id FROM scope_folders)`)
}

/** The files matching, best first when there is text (else by name), at most `limit`. */
export async function searchFiles(db: PluginDb, reader: SearchReader, opts: SearchOptions): Promise<DocumentSummary[]> {
  const mysql = db.dialect === 'mysql'
  const access = readableSql(reader)
  const ctes = [...access.with]
  const cteBindings: unknown[] = [...access.withBindings]
  const where: string[] = [access.where]
  const bindings: unknown[] = [...access.bindings]

  inFolder(opts, 'f.folder_id', { ctes, cteBindings, where, bindings })
  if (opts.creatorId !== undefined) {
    where.push('f.owner_id = ?')
    bindings.push(opts.creatorId)
  }
  if (opts.extensions?.length) {
    where.push(`f.extension IN (${opts.extensions.map(() => '?').join(', ')})`)
    bindings.push(...opts.extensions)
  }
  for (const label of opts.labels ?? []) {
    where.push(
      'EXISTS (SELECT 1 FROM documents_file_labels fl JOIN documents_labels l ON l.id = fl.label_id WHERE fl.file_id = f.id AND l.name = ?)'
    )
    bindings.push(label)
  }
  for (const [column, value] of Object.entries(opts.metadata ?? {})) {
    const equal = metadataEquals(db.dialect, 'm', column, value)
    where.push(`EXISTS (SELECT 1 FROM documents_file_metadata m WHERE m.file_id = f.id AND ${equal.sql})`)
    bindings.push(...equal.bindings)
  }
  if (opts.modifiedFrom) {
    where.push('f.updated_at >= ?')
    bindings.push(opts.modifiedFrom)
  }
  if (opts.modifiedTo) {
    where.push('f.updated_at <= ?')
    bindings.push(opts.modifiedTo)
  }

  const terms = queryTerms(opts.text ?? '', OPERATION_LIMITS.searchTerms)
  const limit = Math.max(1, Math.min(opts.limit, OPERATION_LIMITS.searchResults))
  const withSql = ctes.length ? `WITH RECURSIVE ${ctes.join(',\n')}\n` : ''
  let sql: string
  const selectBindings: unknown[] = []
  if (terms.length === 0) {
    sql = `${withSql}SELECT ${FILE_SELECT} FROM documents_files f WHERE ${where.join(' AND ')} ORDER BY f.name, f.id LIMIT ?`
  } else if (!mysql) {
    where.unshift('documents_search MATCH ?')
    bindings.unshift(fts5Query(terms))
    sql =
      `${withSql}SELECT ${FILE_SELECT} FROM documents_search JOIN documents_files f ON f.id = documents_search.rowid ` +
      `WHERE ${where.join(' AND ')} ORDER BY documents_search.rank, f.name LIMIT ?`
  } else {
    const { against, likes } = mysqlQuery(terms)
    for (const token of likes) {
      where.unshift("CONCAT_WS(' ', s.name, s.labels, s.metadata) REGEXP ?")
      bindings.unshift(wordStartRegex(token))
    }
    let order = 'f.name'
    if (against) {
      const match = 'MATCH (s.name, s.labels, s.metadata, s.body) AGAINST (? IN BOOLEAN MODE)'
      where.unshift(match)
      bindings.unshift(against)
      order = `${match} DESC, f.name`
      selectBindings.push(against)
    }
    sql = `${withSql}SELECT ${FILE_SELECT} FROM documents_search s JOIN documents_files f ON f.id = s.file_id WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`
  }
  const rows = await db.raw<FileHitRow>(sql, [...cteBindings, ...bindings, ...selectBindings, limit])
  return rows.map(summary)
}

export function summary(row: FileHitRow): DocumentSummary {
  return {
    id: Number(row.id),
    name: row.name,
    extension: row.extension,
    mime: row.mime,
    size: Number(row.size),
    pages: row.pages === null ? null : Number(row.pages),
    folder_id: row.folder_id === null ? null : Number(row.folder_id),
    owner_id: Number(row.owner_id),
    updated_at: isoDate(row.updated_at),
    archived: row.archived_at !== null && row.archived_at !== undefined,
  }
}

/** A timestamp as the engines return it (SQLite: ms number or text; MariaDB: Date) in ISO form. */
export function isoDate(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'number') return new Date(value).toISOString()
  if (typeof value === 'string') {
    const date = /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value.replace(' ', 'T'))
    return Number.isNaN(date.getTime()) ? value : date.toISOString()
  }
  return ''
}

/** Folders read to be filtered by name at most (folders are few next to files; names are matched here). */
const FOLDER_SCAN = 5000

/**
 * Folders the reader may read whose names hold every word of `text` (accents and case ignored), in a
 * folder or under it; folders are not in the full-text table, so their names are compared here.
 */
export async function searchFolders(
  db: PluginDb,
  reader: SearchReader,
  opts: Pick<SearchOptions, 'text' | 'folderId' | 'subfolders' | 'limit'>
): Promise<FolderSummary[]> {
  const ctes: string[] = []
  const cteBindings: unknown[] = []
  const where: string[] = ['d.trashed_at IS NULL']
  const bindings: unknown[] = []
  if (!reader.everything) {
    const access = readableSql(reader)
    ctes.push(...access.with)
    cteBindings.push(...access.withBindings)
    where.push('d.id IN (SELECT id FROM readable_folders)')
  }
  inFolder(opts, 'd.parent_id', { ctes, cteBindings, where, bindings })
  const withSql = ctes.length ? `WITH RECURSIVE ${ctes.join(',\n')}\n` : ''
  const rows = await db.raw<{
    id: number
    name: string
    parent_id: number | null
    type: string
    creator_id: number | null
    updated_at: unknown
  }>(
    `${withSql}SELECT d.id, d.name, d.parent_id, d.type, d.creator_id, d.updated_at FROM documents_folders d
      WHERE ${where.join(' AND ')} ORDER BY d.name, d.id LIMIT ?`,
    [...cteBindings, ...bindings, FOLDER_SCAN]
  )
  const wanted = (opts.text ?? '').trim() ? (foldText(opts.text!).match(/[\p{L}\p{N}]+/gu) ?? []) : []
  return rows
    .filter((row) => {
      const name = foldText(String(row.name))
      return wanted.every((word) => name.includes(word))
    })
    .slice(0, Math.max(1, Math.min(opts.limit, OPERATION_LIMITS.searchResults)))
    .map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      parent_id: row.parent_id === null ? null : Number(row.parent_id),
      type: String(row.type),
      creator_id: row.creator_id === null ? null : Number(row.creator_id),
      updated_at: isoDate(row.updated_at),
    }))
}
