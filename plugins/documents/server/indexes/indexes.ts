import { isUniqueViolation, PluginFailure, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import {
  COLUMN_NAME,
  INDEX_COLUMN_TYPES,
  INDEX_LIMITS,
  type FileIndexValues,
  type IndexColumn,
  type IndexRow,
  type IndexValue,
} from '../../shared/indexes.js'
import { requirePermission } from '../sharing/access.js'
import { writeSearchRow } from '../search/index_row.js'

type Deps = Pick<PluginServices, 'db' | 'people'>
type Db = PluginServices['db']

interface StoredIndex {
  id: number
  name: string
  parent_id: number | null
  columns: string
  owner_id: number
}

function parseColumns(text: string): IndexColumn[] {
  try {
    const parsed = JSON.parse(text) as unknown
    return Array.isArray(parsed) ? (parsed as IndexColumn[]) : []
  } catch {
    return []
  }
}

/** Its creator or a superuser changes an index. */
const mayChange = (index: StoredIndex, who: PluginPrincipal) =>
  Number(index.owner_id) === who.userId || who.roles.includes('superuser')

const toRow = (r: StoredIndex, who: PluginPrincipal): IndexRow => ({
  id: Number(r.id),
  name: r.name,
  parent_id: r.parent_id === null ? null : Number(r.parent_id),
  columns: parseColumns(r.columns),
  creator_id: Number(r.owner_id),
  can_change: mayChange(r, who),
})

/** An index's name: trimmed, 1–120 characters, no control characters. */
function cleanName(value: string | undefined): string {
  const name = (value ?? '').trim()
  // eslint-disable-next-line no-control-regex
  if (name === '' || name.length > INDEX_LIMITS.nameMax || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new PluginFailure('documents.index_invalid_name', 400)
  }
  return name
}

/** Columns as sent: a list of {name, type}, names unique (case-insensitively) and safe in a JSON path. */
export function cleanColumns(value: unknown): IndexColumn[] {
  const bad = () => new PluginFailure('documents.index_invalid_columns', 400)
  if (!Array.isArray(value) || value.length === 0 || value.length > INDEX_LIMITS.columns) throw bad()
  const seen = new Set<string>()
  return value.map((column: unknown) => {
    const { name, type } = (column ?? {}) as Record<string, unknown>
    if (typeof name !== 'string' || !COLUMN_NAME.test(name)) throw bad()
    if (!INDEX_COLUMN_TYPES.includes(type as IndexColumn['type'])) throw bad()
    if (seen.has(name.toLowerCase())) throw bad()
    seen.add(name.toLowerCase())
    return { name, type: type as IndexColumn['type'] }
  })
}

export async function listIndexes(db: Db, who: PluginPrincipal): Promise<IndexRow[]> {
  const rows = (await db
    .table('indexes')
    .select('id', 'name', 'parent_id', 'columns', 'owner_id')
    .orderBy('name')
    .orderBy('id')) as StoredIndex[]
  const all = rows.map((r) => toRow(r, who))
  return [...all.filter((r) => r.parent_id === null), ...all.filter((r) => r.parent_id !== null)]
}

async function oneIndex(db: Db, id: number, lock = false): Promise<StoredIndex> {
  const query = db.table('indexes').select('id', 'name', 'parent_id', 'columns', 'owner_id').where('id', id)
  const row = (await (lock ? query.forUpdate() : query).first()) as StoredIndex | null
  if (!row) throw new PluginFailure('documents.index_not_found', 404)
  return row
}

/** Anyone but its creator or a superuser is told the index is not theirs to change. */
function requireCreator(index: StoredIndex, who: PluginPrincipal): void {
  if (!mayChange(index, who)) throw new PluginFailure('documents.index_not_yours', 403)
}

const nameTakenFailure = () => new PluginFailure('documents.index_name_taken', 409)

/**
 * Runs a write that names an index: the unique key on (parent, name) (migration 1006) refuses a name
 * a concurrent request took after nameTaken looked; that is the same clear failure, not a fault.
 */
async function naming<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw isUniqueViolation(error) ? nameTakenFailure() : error
  }
}

async function nameTaken(db: Db, parentId: number | null, name: string, except: number | null): Promise<boolean> {
  const query = db.table('indexes').select('id').where('name', name)
  if (parentId === null) query.whereNull('parent_id')
  else query.where('parent_id', parentId)
  if (except !== null) query.where('id', '<>', except)
  return (await query.first()) !== null
}

export async function createIndex(
  db: Db,
  who: PluginPrincipal,
  input: { name: string | undefined; parentId: number | null; columns: unknown }
): Promise<IndexRow> {
  const name = cleanName(input.name)
  const columns = cleanColumns(input.columns)
  const id = await db.transaction(async (trx) => {
    if (input.parentId !== null) {
      const parent = await oneIndex(trx, input.parentId, true)
      // One level: a sub-index has no sub-indexes of its own.
      if (parent.parent_id !== null) throw new PluginFailure('documents.index_too_deep', 400)
    }
    if (await nameTaken(trx, input.parentId, name, null)) throw nameTakenFailure()
    const [newId] = await naming(() =>
      trx.table('indexes').insert({
        name,
        parent_id: input.parentId,
        columns: JSON.stringify(columns),
        owner_id: who.userId,
        created_at: new Date(),
      })
    )
    return newId!
  })
  return toRow(await oneIndex(db, id), who)
}

/**
 * Renames an index or replaces its columns. A file's value of a column that is gone, or whose type
 * changed, is dropped (and its search row rewritten): a value is never read as another type.
 */
export async function updateIndex(
  db: Db,
  who: PluginPrincipal,
  id: number,
  input: { name: string | undefined; columns: unknown }
): Promise<IndexRow> {
  const name = cleanName(input.name)
  const columns = cleanColumns(input.columns)
  const touched = await db.transaction(async (trx) => {
    const index = await oneIndex(trx, id, true)
    requireCreator(index, who)
    if (await nameTaken(trx, index.parent_id, name, id)) throw nameTakenFailure()
    const kept = new Map(columns.map((c) => [c.name, c.type]))
    const dropped = parseColumns(index.columns).filter((c) => kept.get(c.name) !== c.type)
    await naming(() =>
      trx
        .table('indexes')
        .where('id', id)
        .update({ name, columns: JSON.stringify(columns) })
    )
    if (dropped.length === 0) return []
    const filed = (await trx.table('file_metadata').select('file_id', 'values').where('index_id', id)) as {
      file_id: number
      values: string
    }[]
    for (const row of filed) {
      const values = parseValues(row.values)
      for (const column of dropped) delete values[column.name]
      await trx
        .table('file_metadata')
        .where('file_id', row.file_id)
        .where('index_id', id)
        .update({ values: JSON.stringify(values) })
    }
    return filed.map((row) => row.file_id)
  })
  for (const fileId of touched) await writeSearchRow(db, fileId)
  return toRow(await oneIndex(db, id), who)
}

/** Deletes an index, its sub-indexes and every file's values under them (the foreign keys cascade). */
export async function deleteIndex(db: Db, who: PluginPrincipal, id: number): Promise<{ id: number }> {
  const touched = await db.transaction(async (trx) => {
    const index = await oneIndex(trx, id, true)
    requireCreator(index, who)
    const ids = [
      id,
      ...((await trx.table('indexes').select('id').where('parent_id', id)) as { id: number }[]).map((r) => r.id),
    ]
    const filed = (await trx.table('file_metadata').select('file_id').whereIn('index_id', ids)) as { file_id: number }[]
    await trx.table('file_metadata').whereIn('index_id', ids).delete()
    await trx.table('indexes').where('parent_id', id).delete()
    await trx.table('indexes').where('id', id).delete()
    return [...new Set(filed.map((r) => r.file_id))]
  })
  for (const fileId of touched) await writeSearchRow(db, fileId)
  return { id }
}

function parseValues(text: string): Record<string, IndexValue> {
  try {
    const parsed = JSON.parse(text) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, IndexValue>) : {}
  } catch {
    return {}
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** One value as its column's type asks; null or absent leaves the column empty. */
function cleanValue(column: IndexColumn, value: unknown): IndexValue {
  if (value === null || value === undefined || value === '') return null
  const bad = () => new PluginFailure('documents.index_invalid_value', 400, { column: column.name })
  switch (column.type) {
    case 'text':
      if (typeof value !== 'string' && typeof value !== 'number') throw bad()
      if (String(value).length > INDEX_LIMITS.textMax) throw bad()
      return String(value)
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN
      if (!Number.isFinite(number)) throw bad()
      return number
    }
    case 'boolean':
      if (value === true || value === 'true') return true
      if (value === false || value === 'false') return false
      throw bad()
    case 'date': {
      const match = typeof value === 'string' ? DATE.exec(value) : null
      if (!match) throw bad()
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
      if (date.toISOString().slice(0, 10) !== value) throw bad()
      return value as string
    }
  }
}

/** A file's values under the index, checked against its columns; an unknown column is refused. */
export function cleanValues(columns: IndexColumn[], value: unknown): Record<string, IndexValue> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new PluginFailure('documents.index_invalid_values', 400)
  }
  const byName = new Map(columns.map((c) => [c.name, c]))
  const values: Record<string, IndexValue> = {}
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const column = byName.get(name)
    if (!column) throw new PluginFailure('documents.index_unknown_column', 400, { column: name.slice(0, 40) })
    const clean = cleanValue(column, raw)
    if (clean !== null) values[name] = clean
  }
  return values
}

/** The indexes a file is filed under, with its values (read access). */
export async function fileIndexValues(deps: Deps, who: PluginPrincipal, fileId: number): Promise<FileIndexValues[]> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const rows = (await deps.db.table('file_metadata').select('index_id', 'values').where('file_id', fileId)) as {
    index_id: number
    values: string
  }[]
  if (rows.length === 0) return []
  const indexes = (await deps.db
    .table('indexes')
    .select('id', 'name', 'parent_id', 'columns', 'owner_id')
    .whereIn(
      'id',
      rows.map((r) => r.index_id)
    )) as StoredIndex[]
  const byId = new Map(indexes.map((i) => [Number(i.id), i]))
  return rows
    .map((r) => ({
      index_id: Number(r.index_id),
      index_name: byId.get(Number(r.index_id))?.name ?? '',
      values: parseValues(r.values),
    }))
    .sort((a, b) => a.index_name.localeCompare(b.index_name) || a.index_id - b.index_id)
}

/** Files a file under an index with its values, or changes them (write access to the file). */
export async function fileUnderIndex(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  indexId: number,
  rawValues: unknown
): Promise<FileIndexValues> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'all')
  const index = await deps.db.transaction(async (db) => {
    // Both re-read under lock: the file may have gone to the trash, the index changed its columns.
    const file = await db.table('files').select('trashed_at').where('id', fileId).forUpdate().first()
    if (!file || file.trashed_at !== null) throw new PluginFailure('documents.access_not_found', 404)
    const index = await oneIndex(db, indexId, true)
    const values = JSON.stringify(cleanValues(parseColumns(index.columns), rawValues))
    const known = await db
      .table('file_metadata')
      .select('file_id')
      .where('file_id', fileId)
      .where('index_id', indexId)
      .first()
    if (known) await db.table('file_metadata').where('file_id', fileId).where('index_id', indexId).update({ values })
    else await db.table('file_metadata').insert({ file_id: fileId, index_id: indexId, values })
    await writeSearchRow(db, fileId)
    return index
  })
  const values = await deps.db
    .table('file_metadata')
    .select('values')
    .where('file_id', fileId)
    .where('index_id', indexId)
    .first()
  return { index_id: indexId, index_name: index.name, values: parseValues(values.values) }
}

/** Takes a file out of an index (write access); one not filed there is not found. */
export async function unfile(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  indexId: number
): Promise<{ id: number }> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'all')
  await deps.db.transaction(async (db) => {
    const gone = await db.table('file_metadata').where('file_id', fileId).where('index_id', indexId).delete()
    if (gone === 0) throw new PluginFailure('documents.index_not_filed', 404)
    await writeSearchRow(db, fileId)
  })
  return { id: indexId }
}

export { parseColumns, parseValues, type StoredIndex }
