/**
 * Indexes (spec 001 §3, spec 000 §7 `select_indexing`): named schemas of typed metadata columns, each
 * top-level index with its sub-indexes (one level), under which a file is filed with its values. Shared
 * by the server half (server/indexes/) and the screens. Isomorphic: no node:, no DOM.
 *
 * Indexes are the institution's: every signed-in user lists them and files their documents under them;
 * their creator (or a superuser) changes or deletes one. Filing needs write ('all') access to the file;
 * reading a file's values, read access. `select_indexing` answers only files the caller may read.
 */
import { fillPath } from './library.js'

export type IndexColumnType = 'text' | 'number' | 'date' | 'boolean'
export const INDEX_COLUMN_TYPES: readonly IndexColumnType[] = ['text', 'number', 'date', 'boolean']

export interface IndexColumn {
  /** A name a form's fields_select and jsonwhere use: a letter or _, then letters, digits or _. */
  name: string
  type: IndexColumnType
}

export const INDEX_LIMITS = {
  nameMax: 120,
  columns: 30,
  columnNameMax: 40,
  /** The longest text value. */
  textMax: 500,
  /** Rows select_indexing answers when `limit` is absent, and its largest value. */
  rows: 50,
  maxRows: 200,
} as const

export const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/

/** The columns select_indexing adds to an index's own: the file's id and name. */
export const FILE_COLUMNS = ['id_doc', 'name_doc'] as const

export interface IndexRow {
  id: number
  name: string
  /** null: a top-level index; else the index it is a sub-index of. */
  parent_id: number | null
  columns: IndexColumn[]
  creator_id: number
  /** The caller may rename it, change its columns or delete it: its creator or a superuser (the server's rule). */
  can_change: boolean
}

export type IndexValue = string | number | boolean | null

/** A file's values under one index. */
export interface FileIndexValues {
  index_id: number
  index_name: string
  values: Record<string, IndexValue>
}

export const INDEX_ROUTES = {
  /** → IndexRow[] (all, top-level first, by name; `can_change` for the caller). */
  list: { method: 'GET', path: '/api/documents/indexes' },
  /** name, parent_id (absent: top-level), columns (JSON IndexColumn[]) → IndexRow; a name is unique among siblings. */
  create: { method: 'POST', path: '/api/documents/indexes' },
  /** name, columns → IndexRow; values of a removed column, or of one whose type changed, are dropped. */
  update: { method: 'PUT', path: '/api/documents/indexes/:id' },
  /** → { id }: its sub-indexes and every file's values under them go too. */
  remove: { method: 'DELETE', path: '/api/documents/indexes/:id' },
  /** → FileIndexValues[] (read access). */
  fileValues: { method: 'GET', path: '/api/documents/files/:id/indexes' },
  /** values (JSON {column: value}) → FileIndexValues: files the file under the index (write access). */
  file: { method: 'PUT', path: '/api/documents/files/:id/indexes/:index' },
  /** → { id }: takes the file out of the index. */
  unfile: { method: 'DELETE', path: '/api/documents/files/:id/indexes/:index' },
} as const

export type IndexRouteName = keyof typeof INDEX_ROUTES

export function indexPath(name: IndexRouteName, params: Record<string, string | number> = {}): string {
  return fillPath(INDEX_ROUTES[name].path, params)
}
