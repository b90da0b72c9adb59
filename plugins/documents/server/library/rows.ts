import type { PluginDb, PluginPeople } from '@tramita/plugin-api'
import type { FileRow, FolderRow, LabelRef, OcrState, Permission, PersonRef } from '../../shared/library.js'
import { iso } from './fields.js'

/** Columns a file listing reads. */
export const FILE_COLUMNS = [
  'id',
  'folder_id',
  'owner_id',
  'name',
  'extension',
  'mime',
  'size',
  'pages',
  'ocr_state',
  'sub_type',
  'current_version',
  'updated_at',
  'trashed_at',
  'archived_at',
] as const

export const FOLDER_COLUMNS = ['id', 'name', 'type', 'parent_id', 'creator_id', 'updated_at', 'trashed_at'] as const

export interface FileRecord {
  id: number
  folder_id: number | null
  owner_id: number
  name: string
  extension: string
  mime: string
  size: number | string
  pages: number | null
  ocr_state: string
  sub_type: string | null
  current_version: number
  updated_at: unknown
  trashed_at: unknown
  archived_at?: unknown
  opened_at?: unknown
}

export interface FolderRecord {
  id: number
  name: string
  type: string
  parent_id: number | null
  creator_id: number | null
  updated_at: unknown
  trashed_at: unknown
}

/** Names of people by id, read once for a page of rows. */
export async function peopleRefs(
  people: Pick<PluginPeople, 'byIds'>,
  ids: (number | null)[]
): Promise<Map<number, PersonRef>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))]
  const found = wanted.length ? await people.byIds(wanted) : new Map()
  const refs = new Map<number, PersonRef>()
  for (const id of wanted) refs.set(id, { id, name: found.get(id)?.name ?? '' })
  return refs
}

/** The viewer's own labels on these files, by file id. */
export async function labelsOf(db: PluginDb, viewerId: number, fileIds: number[]): Promise<Map<number, LabelRef[]>> {
  const byFile = new Map<number, LabelRef[]>()
  if (fileIds.length === 0) return byFile
  const links = await db.table('file_labels').select('file_id', 'label_id').whereIn('file_id', fileIds)
  const labelIds = [...new Set(links.map((l: { label_id: number }) => l.label_id))]
  if (labelIds.length === 0) return byFile
  const labels = await db
    .table('labels')
    .select('id', 'name', 'color')
    .whereIn('id', labelIds)
    .where('owner_id', viewerId)
    .orderBy('name')
  const byId = new Map(labels.map((l: LabelRef) => [l.id, { id: l.id, name: l.name, color: l.color }]))
  for (const link of links as { file_id: number; label_id: number }[]) {
    const label = byId.get(link.label_id)
    if (!label) continue
    const list = byFile.get(link.file_id) ?? []
    list.push(label)
    byFile.set(link.file_id, list)
  }
  for (const list of byFile.values()) list.sort((a, b) => a.name.localeCompare(b.name))
  return byFile
}

/** Files as the listing shows them, with owners' names and the viewer's labels. */
export async function fileRows(
  deps: { db: PluginDb; people: Pick<PluginPeople, 'byIds'> },
  viewerId: number,
  records: FileRecord[],
  permissionOf: (record: FileRecord) => Permission
): Promise<FileRow[]> {
  const owners = await peopleRefs(
    deps.people,
    records.map((r) => r.owner_id)
  )
  const labels = await labelsOf(
    deps.db,
    viewerId,
    records.map((r) => r.id)
  )
  return records.map((r) => ({
    id: r.id,
    folder_id: r.folder_id,
    name: r.name,
    extension: r.extension,
    mime: r.mime,
    size: Number(r.size),
    pages: r.pages,
    ocr_state: r.ocr_state as OcrState,
    sub_type: r.sub_type,
    current_version: r.current_version,
    updated_at: iso(r.updated_at),
    owner: owners.get(r.owner_id)!,
    labels: labels.get(r.id) ?? [],
    // Archived by a retention confirmation: read-only for everyone (sharing/access.ts).
    permission: r.archived_at !== null && r.archived_at !== undefined ? 'read' : permissionOf(r),
    ...(r.trashed_at !== null && r.trashed_at !== undefined ? { trashed_at: iso(r.trashed_at) } : {}),
    ...(r.archived_at !== null && r.archived_at !== undefined ? { archived_at: iso(r.archived_at) } : {}),
    ...(r.opened_at !== undefined ? { opened_at: iso(r.opened_at) } : {}),
  }))
}

export async function folderRows(
  people: Pick<PluginPeople, 'byIds'>,
  records: FolderRecord[],
  permissionOf: (record: FolderRecord) => Permission
): Promise<FolderRow[]> {
  const owners = await peopleRefs(
    people,
    records.map((r) => r.creator_id)
  )
  return records.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type === 'synchronized' ? 'synchronized' : 'normal',
    parent_id: r.parent_id,
    updated_at: iso(r.updated_at),
    owner: r.creator_id === null ? null : owners.get(r.creator_id)!,
    permission: permissionOf(r),
    ...(r.trashed_at !== null && r.trashed_at !== undefined ? { trashed_at: iso(r.trashed_at) } : {}),
  }))
}

/** One file as the listing shows it, for the viewer. */
export async function oneFileRow(
  deps: { db: PluginDb; people: Pick<PluginPeople, 'byIds'> },
  viewerId: number,
  fileId: number,
  permission: Permission
): Promise<FileRow> {
  const record = (await deps.db
    .table('files')
    .select(...FILE_COLUMNS)
    .where('id', fileId)
    .first()) as FileRecord
  const [row] = await fileRows(deps, viewerId, [record], () => permission)
  return row
}
