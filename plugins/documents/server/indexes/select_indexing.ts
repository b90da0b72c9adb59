import {
  PluginFailure,
  type PluginLinkInput,
  type PluginLinkRows,
  type PluginPrincipal,
  type PluginServices,
} from '@tramita/plugin-api'
import { FILE_COLUMNS, INDEX_LIMITS, type IndexValue } from '../../shared/indexes.js'
import { metadataEquals, readableSql, searchReader } from '../search/search.js'
import { parseColumns, parseValues } from './indexes.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

/** fields_select as sent: a JSON list of names or one comma-separated text. */
function fieldsSelect(input: PluginLinkInput): string[] {
  let value: unknown
  try {
    value = input.json('fields_select')
  } catch {
    value = input.field('fields_select')
  }
  if (typeof value === 'string') value = value.split(',').map((name) => name.trim())
  if (!Array.isArray(value) || value.length === 0 || value.length > INDEX_LIMITS.columns + FILE_COLUMNS.length) {
    throw new PluginFailure('documents.index_bad_fields', 400)
  }
  if (!value.every((name) => typeof name === 'string' && name !== '')) {
    throw new PluginFailure('documents.index_bad_fields', 400)
  }
  return [...new Set(value as string[])]
}

function jsonWhere(input: PluginLinkInput): Record<string, string | number | boolean> {
  let value: unknown
  try {
    value = input.json('jsonwhere')
  } catch {
    throw new PluginFailure('documents.index_bad_where', 400)
  }
  if (value === undefined || value === null || value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new PluginFailure('documents.index_bad_where', 400)
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length > INDEX_LIMITS.columns) throw new PluginFailure('documents.index_bad_where', 400)
  for (const [, v] of entries) {
    const ok = ['string', 'number', 'boolean'].includes(typeof v) && String(v).length <= INDEX_LIMITS.textMax
    if (!ok) throw new PluginFailure('documents.index_bad_where', 400)
  }
  return value as Record<string, string | number | boolean>
}

/**
 * `select_indexing` (spec 000 §7, links_modules): type_indexing `indexing` (a top-level index) or `sub`
 * (a sub-index), `id`, fields_select (its columns, and id_doc / name_doc for the file), optional jsonwhere
 * ({column: value}, equality) and limit → one row per file filed under it that the caller may read,
 * outside the trash, by file name. A column the file has no value for is null.
 */
export async function selectIndexing(
  deps: Deps,
  input: PluginLinkInput,
  who: PluginPrincipal
): Promise<PluginLinkRows> {
  const kind = input.field('type_indexing')
  if (kind !== 'indexing' && kind !== 'sub') throw new PluginFailure('documents.index_bad_kind', 400)
  const idText = input.field('id') ?? ''
  if (!/^[1-9]\d{0,9}$/.test(idText)) throw new PluginFailure('documents.invalid_id', 400)
  const index = await deps.db.table('indexes').select('id', 'parent_id', 'columns').where('id', Number(idText)).first()
  if (!index || (kind === 'sub') !== (index.parent_id !== null)) {
    throw new PluginFailure('documents.index_not_found', 404)
  }
  const columns = new Set(parseColumns(index.columns).map((c) => c.name))
  const fields = fieldsSelect(input)
  for (const name of fields) {
    if (!columns.has(name) && !(FILE_COLUMNS as readonly string[]).includes(name)) {
      throw new PluginFailure('documents.index_unknown_column', 400, { column: name.slice(0, 40) })
    }
  }
  const where = jsonWhere(input)
  const limitText = input.field('limit')
  const limit =
    limitText === undefined || limitText === ''
      ? INDEX_LIMITS.rows
      : /^\d{1,4}$/.test(limitText)
        ? Math.max(1, Math.min(Number(limitText), INDEX_LIMITS.maxRows))
        : NaN
  if (Number.isNaN(limit)) throw new PluginFailure('documents.invalid_paging', 400)

  const access = readableSql(searchReader(who))
  const conditions = [access.where, 'm.index_id = ?']
  const bindings: unknown[] = [...access.bindings, index.id]
  for (const [column, value] of Object.entries(where)) {
    if (!columns.has(column))
      throw new PluginFailure('documents.index_unknown_column', 400, { column: column.slice(0, 40) })
    const equal = metadataEquals(deps.db.dialect, 'm', column, value)
    conditions.push(equal.sql)
    bindings.push(...equal.bindings)
  }
  const values = deps.db.dialect === 'mysql' ? 'm.`values`' : 'm."values"'
  const withSql = access.with.length ? `WITH RECURSIVE ${access.with.join(',\n')}\n` : ''
  const rows = await deps.db.raw<{ id: number; name: string; vals: string }>(
    `${withSql}SELECT f.id, f.name, ${values} AS vals FROM documents_file_metadata m
     JOIN documents_files f ON f.id = m.file_id
     WHERE ${conditions.join(' AND ')} ORDER BY f.name, f.id LIMIT ?`,
    [...access.withBindings, ...bindings, limit]
  )
  return rows.map((row) => {
    const stored = parseValues(row.vals)
    const out: Record<string, IndexValue> = {}
    for (const name of fields) {
      out[name] = name === 'id_doc' ? Number(row.id) : name === 'name_doc' ? row.name : (stored[name] ?? null)
    }
    return out
  })
}
