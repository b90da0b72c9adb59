/** The library's calls from the screens, on the route table the server half shares (shared/library.ts). */
import { call } from '@tramita/web/api'
import { OPERATIONS_PATHS } from '../../shared/operations.js'
import {
  indexPath,
  type FileIndexValues,
  type IndexColumn,
  type IndexRow,
  type IndexValue,
} from '../../shared/indexes.js'
import {
  libraryPath,
  LIBRARY_ROUTES,
  type FolderRow,
  type LabelRow,
  type LibraryListing,
  type LibraryView,
  type TrashAnswer,
} from '../../shared/library.js'

async function data<T>(promise: Promise<{ data?: T }>): Promise<T> {
  return (await promise).data as T
}

export function listView(view: LibraryView, folder: number | null, offset = 0): Promise<LibraryListing> {
  const fields: Record<string, string | number> = { offset }
  if (folder !== null) fields.folder = folder
  return data(call<LibraryListing>('GET', libraryPath('list', { view }), fields))
}

export function makeFolder(name: string, parent: number | null): Promise<FolderRow> {
  const fields: Record<string, string | number> = { name }
  if (parent !== null) fields.parent_id = parent
  return data(call<FolderRow>(LIBRARY_ROUTES.makeFolder.method, libraryPath('makeFolder'), fields))
}

export interface Selection {
  files: number[]
  folders: number[]
}

export function moveToTrash(items: Selection): Promise<TrashAnswer> {
  return data(call<TrashAnswer>('POST', libraryPath('trash'), { ...items }))
}

export function restore(items: Selection): Promise<TrashAnswer> {
  return data(call<TrashAnswer>('POST', libraryPath('restore'), { ...items }))
}

/** Without items: the whole recycle bin. */
export function emptyTrash(items?: Selection): Promise<TrashAnswer> {
  return data(call<TrashAnswer>('POST', libraryPath('empty'), items ? { ...items } : {}))
}

export function labels(): Promise<LabelRow[]> {
  return data(call<LabelRow[]>('GET', libraryPath('labels')))
}

export function createLabel(name: string, color: string): Promise<LabelRow> {
  return data(call<LabelRow>('POST', libraryPath('createLabel'), { name, color, description: '' }))
}

export function setLabels(file: number, labelIds: number[]): Promise<unknown> {
  return data(call('PUT', libraryPath('setLabels', { id: file }), { label_ids: labelIds }))
}

/** Where a file's bytes are read (the session's headers go with the request: see transfers.ts). */
export function contentPath(file: number, download: boolean): string {
  const path = libraryPath('content', { id: file })
  return download ? `${path}?download=1` : path
}

/** Renames through the spec's operations (rename_doc, rename_folder); a refusal is their `no_rename`. */
export function rename(kind: 'file' | 'folder', id: number, name: string): Promise<unknown> {
  return kind === 'file'
    ? call('POST', OPERATIONS_PATHS.renameDoc, { id_doc: id, name_doc: name })
    : call('POST', OPERATIONS_PATHS.renameFolder, { id_folder: id, name_folder: name })
}

export function indexes(): Promise<IndexRow[]> {
  return data(call<IndexRow[]>('GET', indexPath('list')))
}

export function createIndex(name: string, parent: number | null, columns: IndexColumn[]): Promise<IndexRow> {
  const fields: Record<string, string | number | object> = { name, columns }
  if (parent !== null) fields.parent_id = parent
  return data(call<IndexRow>('POST', indexPath('create'), fields))
}

export function fileIndexes(file: number): Promise<FileIndexValues[]> {
  return data(call<FileIndexValues[]>('GET', indexPath('fileValues', { id: file })))
}

export function fileUnderIndex(
  file: number,
  index: number,
  values: Record<string, IndexValue>
): Promise<FileIndexValues> {
  return data(call<FileIndexValues>('PUT', indexPath('file', { id: file, index }), { values }))
}

export function unfile(file: number, index: number): Promise<unknown> {
  return data(call('DELETE', indexPath('unfile', { id: file, index })))
}
