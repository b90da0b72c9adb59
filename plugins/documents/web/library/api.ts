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
  type CommentRow,
  type FileRow,
  type FolderRow,
  type LabelRow,
  type LibraryListing,
  type LibrarySort,
  type LibraryView,
  type TrashAnswer,
  type VersionRow,
} from '../../shared/library.js'

import { OCR_ROUTES, type OcrMode, type OcrRun } from '../../shared/ocr.js'

/** A call's `data` (the screens' calls answer `{status: 'done', data}`). */
export async function data<T>(promise: Promise<{ data?: T }>): Promise<T> {
  return (await promise).data as T
}

export interface ListOrder {
  sort: LibrarySort
  order: 'asc' | 'desc'
}

export function listView(
  view: LibraryView,
  folder: number | null,
  offset = 0,
  order: ListOrder = { sort: 'name', order: 'asc' }
): Promise<LibraryListing> {
  const fields: Record<string, string | number> = { offset, sort: order.sort, order: order.order }
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

/** Where a file's bytes are read, the current ones or a version's (the session's headers go with the request). */
export function contentPath(file: number, download: boolean, version?: number): string {
  const query = new URLSearchParams()
  if (download) query.set('download', '1')
  if (version !== undefined) query.set('version', String(version))
  const path = libraryPath('content', { id: file })
  return query.size ? `${path}?${query}` : path
}

export function versions(file: number): Promise<VersionRow[]> {
  return data(call<VersionRow[]>('GET', libraryPath('versions', { id: file })))
}

export function restoreVersion(file: number, number: number): Promise<FileRow> {
  return data(call<FileRow>('POST', libraryPath('restoreVersion', { id: file, number })))
}

export function comments(file: number): Promise<CommentRow[]> {
  return data(call<CommentRow[]>('GET', libraryPath('comments', { id: file })))
}

export function addComment(file: number, text: string): Promise<CommentRow[]> {
  return data(call<CommentRow[]>('POST', libraryPath('addComment', { id: file }), { text }))
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

/** A new name and columns (the values of a column removed or retyped are dropped); the index's creator or a superuser. */
export function updateIndex(id: number, name: string, columns: IndexColumn[]): Promise<IndexRow> {
  return data(call<IndexRow>('PUT', indexPath('update', { id }), { name, columns }))
}

/** Deletes the index with its sub-indexes and the values filed under them. */
export function removeIndex(id: number): Promise<unknown> {
  return data(call('DELETE', indexPath('remove', { id })))
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

const ocrPath = (name: keyof typeof OCR_ROUTES, file: number) => OCR_ROUTES[name].path.replace(':id', String(file))

export function ocrStatus(file: number): Promise<OcrRun | null> {
  return data(call<OcrRun | null>('GET', ocrPath('status', file)))
}

export function startOcr(file: number, mode: OcrMode): Promise<OcrRun> {
  return data(call<OcrRun>('POST', ocrPath('start', file), { mode }))
}

/** Where the searchable PDF an OCR run made of the current version is read. */
export function searchablePath(file: number): string {
  return `${ocrPath('pdf', file)}?download=1`
}
