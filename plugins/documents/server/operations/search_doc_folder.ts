import type { PluginPrincipal, PluginRequest, PluginServices } from '@tramita/plugin-api'
import {
  OPERATION_LIMITS,
  type FolderSummary,
  type JsonWhere,
  type SearchAnswer,
  type SearchType,
} from '../../shared/operations.js'
import { requirePermission } from '../sharing/access.js'
import { searchFiles, searchFolders, searchReader } from '../search/search.js'
import { asOperation, failure } from './failures.js'
import { flag, optionalId } from './input.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

const TYPES: Record<string, SearchType> = {
  doc: 'doc',
  docs: 'doc',
  document: 'doc',
  documents: 'doc',
  file: 'doc',
  files: 'doc',
  folder: 'folder',
  folders: 'folder',
  all: 'all',
}
const WHERE_KEYS = new Set(['text', 'extension', 'labels', 'metadata', 'modified_from', 'modified_to'])
/** A metadata column name: what an index's column may be called, never a quote or a path character. */
const COLUMN = /^[\p{L}\p{N}_ .-]{1,64}$/u
const EXTENSION = /^[a-z0-9]{1,20}$/

/** The filters of search_doc_folder's jsonwhere, checked key by key (see JsonWhere); anything else is refused. */
export function parseJsonWhere(value: unknown): JsonWhere {
  if (value === undefined || value === null || value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw failure('search', 400, 'invalid_jsonwhere')
  const where = value as Record<string, unknown>
  for (const key of Object.keys(where)) if (!WHERE_KEYS.has(key)) throw failure('search', 400, 'invalid_jsonwhere')
  const out: JsonWhere = {}
  if (where.text !== undefined) {
    if (typeof where.text !== 'string' || where.text.length > OPERATION_LIMITS.searchText) {
      throw failure('search', 400, 'invalid_jsonwhere')
    }
    out.text = where.text
  }
  if (where.extension !== undefined) {
    const list = Array.isArray(where.extension) ? where.extension : [where.extension]
    if (
      list.length > 20 ||
      !list.every((e) => typeof e === 'string' && EXTENSION.test(e.toLowerCase().replace(/^\./, '')))
    ) {
      throw failure('search', 400, 'invalid_jsonwhere')
    }
    out.extension = list.map((e) => (e as string).toLowerCase().replace(/^\./, ''))
  }
  if (where.labels !== undefined) {
    if (
      !Array.isArray(where.labels) ||
      where.labels.length > 20 ||
      !where.labels.every((l) => typeof l === 'string' && l.length <= 60)
    ) {
      throw failure('search', 400, 'invalid_jsonwhere')
    }
    out.labels = where.labels as string[]
  }
  if (where.metadata !== undefined) {
    const metadata = where.metadata
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
      throw failure('search', 400, 'invalid_jsonwhere')
    const entries = Object.entries(metadata as Record<string, unknown>)
    if (entries.length > OPERATION_LIMITS.metadataFilters) throw failure('search', 400, 'invalid_jsonwhere')
    for (const [column, v] of entries) {
      const scalar =
        typeof v === 'string' ? v.length <= 1000 : typeof v === 'number' ? Number.isFinite(v) : typeof v === 'boolean'
      if (!COLUMN.test(column) || !scalar) throw failure('search', 400, 'invalid_jsonwhere')
    }
    out.metadata = Object.fromEntries(entries) as Record<string, string | number | boolean>
  }
  for (const key of ['modified_from', 'modified_to'] as const) {
    if (where[key] === undefined) continue
    const text = where[key]
    if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text))) {
      throw failure('search', 400, 'invalid_jsonwhere')
    }
    out[key] = text
  }
  return out
}

/** A folder path ("/Contratos/2026") from the caller's root, one name per level; null when absent. */
async function folderByPath(deps: Deps, who: PluginPrincipal, path: string): Promise<number | null> {
  const names = path
    .split('/')
    .map((n) => n.trim())
    .filter(Boolean)
  if (names.length === 0) return null
  if (names.length > 64 || names.some((n) => n === '..' || n === '.')) throw failure('search', 400, 'invalid_path')
  let parent: number | null = null
  for (const name of names) {
    const query = deps.db.table('folders').select('id').where('name', name).whereNull('trashed_at')
    if (parent === null) query.whereNull('parent_id').where('creator_id', who.userId)
    else query.where('parent_id', parent)
    const row: { id: number } | null = await query.first()
    if (!row) throw failure('search', 404, 'access_not_found')
    parent = Number(row.id)
  }
  return parent
}

/**
 * search_doc_folder (spec 001 §7): documents and/or folders the caller may read, in a folder (id_folder,
 * else `path` from the caller's root, else everywhere), with its subfolders when `subcarpetas`, matching
 * jsonwhere's filters. `id_creator` is accepted and ignored (old clients send 1).
 */
export function searchDocFolder(deps: Deps, who: PluginPrincipal, req: PluginRequest): Promise<SearchAnswer> {
  return asOperation('search', async () => {
    const type = TYPES[(req.field('type_search') ?? 'doc').trim().toLowerCase() || 'doc']
    if (!type) throw failure('search', 400, 'invalid_type')
    let raw: unknown
    try {
      raw = req.field('jsonwhere')?.trim() ? req.json('jsonwhere') : undefined
    } catch {
      throw failure('search', 400, 'invalid_jsonwhere')
    }
    const where = parseJsonWhere(raw)
    const subfolders = flag(req.field('subcarpetas'))
    let folderId = optionalId('search', req.field('id_folder'))
    if (folderId === null) folderId = await folderByPath(deps, who, req.field('path') ?? '')
    if (folderId !== null) await requirePermission(deps, who, { type: 'folder', id: folderId }, 'read')
    const reader = searchReader(who)
    const limit = OPERATION_LIMITS.searchResults
    const documents =
      type === 'folder'
        ? []
        : await searchFiles(deps.db, reader, {
            text: where.text,
            ...(folderId !== null ? { folderId, subfolders } : {}),
            extensions: typeof where.extension === 'string' ? [where.extension] : where.extension,
            labels: where.labels,
            metadata: where.metadata,
            ...(where.modified_from ? { modifiedFrom: new Date(where.modified_from) } : {}),
            ...(where.modified_to ? { modifiedTo: new Date(where.modified_to) } : {}),
            limit,
          })
    const folders: FolderSummary[] =
      type === 'doc'
        ? []
        : await searchFolders(deps.db, reader, {
            text: where.text,
            ...(folderId !== null ? { folderId, subfolders } : {}),
            limit,
          })
    return { documents, folders }
  })
}
