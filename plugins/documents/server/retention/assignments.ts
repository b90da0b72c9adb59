import { PluginFailure, type PluginDb } from '@tramita/plugin-api'
import {
  RETENTION_TARGET_TYPES,
  type AssignmentRow,
  type EffectiveRetention,
  type RetentionTargetType,
} from '../../shared/retention.js'
import { loadSchedules, totalYears, type Schedule } from './schedules.js'

/**
 * Which schedule applies to a document: the nearest assignment wins. The document's own; else the
 * indexes it is filed under (a sub-index's own before its parent's; a document filed under two indexes
 * that name different schedules at the same distance keeps the longer retention, the cautious reading);
 * else its folder's, or the nearest folder's above it.
 */

const TABLES: Record<RetentionTargetType, string> = { folder: 'folders', index: 'indexes', file: 'files' }

const fail = (key: string, status = 400) => new PluginFailure(`documents.${key}`, status)

export interface Applied {
  scheduleId: number
  fromType: RetentionTargetType
  fromId: number
}

/** A file as the resolution reads it. */
export interface FileFacts {
  id: number
  folder_id: number | null
  retention_schedule_id: number | null
}

const CHUNK = 500

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = []
  for (let at = 0; at < list.length; at += CHUNK) out.push(list.slice(at, at + CHUNK))
  return out
}

/** For each folder: the nearest folder at or above it with a schedule of its own (one recursive query per chunk). */
async function folderSchedules(db: PluginDb, folderIds: readonly number[]): Promise<Map<number, Applied>> {
  const out = new Map<number, Applied>()
  for (const part of chunks([...new Set(folderIds)])) {
    const rows = await db.raw<{ start_id: number; id: number; schedule_id: number }>(
      `WITH RECURSIVE up (start_id, id, parent_id, schedule_id, depth) AS (
         SELECT id, id, parent_id, retention_schedule_id, 0 FROM documents_folders WHERE id IN (${part.map(() => '?').join(', ')})
         UNION ALL
         SELECT up.start_id, f.id, f.parent_id, f.retention_schedule_id, up.depth + 1
           FROM documents_folders f JOIN up ON f.id = up.parent_id
          WHERE up.schedule_id IS NULL AND up.depth < 200
       )
       SELECT start_id, id, schedule_id FROM up WHERE schedule_id IS NOT NULL`,
      part
    )
    for (const row of rows) {
      out.set(Number(row.start_id), { scheduleId: Number(row.schedule_id), fromType: 'folder', fromId: Number(row.id) })
    }
  }
  return out
}

/** For each file filed under an index: the nearest index schedule (see above). */
async function indexSchedules(
  db: PluginDb,
  fileIds: readonly number[],
  schedules: ReadonlyMap<number, Schedule>
): Promise<Map<number, Applied>> {
  const out = new Map<number, Applied>()
  if (fileIds.length === 0) return out
  const indexes = (await db.table('indexes').select('id', 'parent_id', 'retention_schedule_id')) as {
    id: number
    parent_id: number | null
    retention_schedule_id: number | null
  }[]
  if (!indexes.some((i) => i.retention_schedule_id !== null)) return out
  const byId = new Map(indexes.map((i) => [Number(i.id), i]))
  /** The index's schedule, or its parent's (indexes have one level of sub-indexes; deeper is walked too). */
  const nearest = (indexId: number): (Applied & { depth: number }) | null => {
    let at = byId.get(indexId)
    for (let depth = 0; at && depth < 50; depth++) {
      if (at.retention_schedule_id !== null) {
        return { scheduleId: Number(at.retention_schedule_id), fromType: 'index', fromId: Number(at.id), depth }
      }
      at = at.parent_id === null ? undefined : byId.get(Number(at.parent_id))
    }
    return null
  }
  const best = new Map<number, Applied & { depth: number }>()
  for (const part of chunks(fileIds)) {
    const filed = (await db.table('file_metadata').select('file_id', 'index_id').whereIn('file_id', part)) as {
      file_id: number
      index_id: number
    }[]
    for (const row of filed) {
      const found = nearest(Number(row.index_id))
      const schedule = found && schedules.get(found.scheduleId)
      if (!found || !schedule) continue
      const fileId = Number(row.file_id)
      const current = best.get(fileId)
      const currentYears = current ? totalYears(schedules.get(current.scheduleId)!) : -1
      if (
        !current ||
        found.depth < current.depth ||
        (found.depth === current.depth &&
          (totalYears(schedule) > currentYears ||
            (totalYears(schedule) === currentYears && found.scheduleId < current.scheduleId)))
      ) {
        best.set(fileId, found)
      }
    }
  }
  for (const [fileId, found] of best)
    out.set(fileId, { scheduleId: found.scheduleId, fromType: 'index', fromId: found.fromId })
  return out
}

/** The schedule that applies to each of these files (absent: none). */
export async function appliedSchedules(
  db: PluginDb,
  files: readonly FileFacts[],
  schedules: ReadonlyMap<number, Schedule>
): Promise<Map<number, Applied>> {
  const out = new Map<number, Applied>()
  const rest: FileFacts[] = []
  for (const file of files) {
    const own = file.retention_schedule_id === null ? null : Number(file.retention_schedule_id)
    if (own !== null && schedules.has(own)) out.set(file.id, { scheduleId: own, fromType: 'file', fromId: file.id })
    else rest.push(file)
  }
  const byIndex = await indexSchedules(
    db,
    rest.map((f) => f.id),
    schedules
  )
  const inFolders: FileFacts[] = []
  for (const file of rest) {
    const found = byIndex.get(file.id)
    if (found) out.set(file.id, found)
    else if (file.folder_id !== null) inFolders.push(file)
  }
  const byFolder = await folderSchedules(
    db,
    inFolders.map((f) => Number(f.folder_id))
  )
  for (const file of inFolders) {
    const found = byFolder.get(Number(file.folder_id))
    if (found && schedules.has(found.scheduleId)) out.set(file.id, found)
  }
  return out
}

export function targetTypeOf(value: string | undefined): RetentionTargetType {
  if (!RETENTION_TARGET_TYPES.includes(value as RetentionTargetType)) throw fail('retention_bad_target')
  return value as RetentionTargetType
}

/** The target's row, which must exist and be out of the trash. */
async function targetRow(db: PluginDb, type: RetentionTargetType, id: number) {
  const columns =
    type === 'file' ? ['id', 'folder_id', 'retention_schedule_id', 'trashed_at'] : ['id', 'retention_schedule_id']
  if (type === 'folder') columns.push('parent_id', 'trashed_at')
  const row = await db
    .table(TABLES[type])
    .select(...columns)
    .where('id', id)
    .first()
  if (!row || (row.trashed_at !== undefined && row.trashed_at !== null)) throw fail('retention_target_not_found', 404)
  return row
}

/** The schedule of the target itself and the one that applies to it (for a folder: its own or the nearest above). */
export async function effectiveOf(db: PluginDb, type: RetentionTargetType, id: number): Promise<EffectiveRetention> {
  const row = await targetRow(db, type, id)
  const schedules = await loadSchedules(db)
  const own = row.retention_schedule_id === null ? null : Number(row.retention_schedule_id)
  let applied: Applied | null = null
  if (type === 'file') {
    applied =
      (
        await appliedSchedules(
          db,
          [{ id, folder_id: row.folder_id === null ? null : Number(row.folder_id), retention_schedule_id: own }],
          schedules
        )
      ).get(id) ?? null
  } else if (type === 'folder') {
    applied = (await folderSchedules(db, [id])).get(id) ?? null
  } else {
    const parent = own === null ? await db.table('indexes').select('id', 'parent_id').where('id', id).first() : null
    if (own !== null) applied = { scheduleId: own, fromType: 'index', fromId: id }
    else if (parent?.parent_id !== null && parent?.parent_id !== undefined) {
      const up = await db.table('indexes').select('id', 'retention_schedule_id').where('id', parent.parent_id).first()
      if (up?.retention_schedule_id !== null && up?.retention_schedule_id !== undefined)
        applied = { scheduleId: Number(up.retention_schedule_id), fromType: 'index', fromId: Number(up.id) }
    }
  }
  const schedule = applied ? schedules.get(applied.scheduleId) : undefined
  const from =
    applied && schedule
      ? await db.table(TABLES[applied.fromType]).select('name').where('id', applied.fromId).first()
      : undefined
  return {
    target_type: type,
    target_id: id,
    own,
    effective:
      applied && schedule
        ? {
            schedule_id: schedule.id,
            schedule_code: schedule.code,
            from_type: applied.fromType,
            from_id: applied.fromId,
            from_name: typeof from?.name === 'string' ? from.name : '',
          }
        : null,
  }
}

/** Gives the target a schedule of its own (null: none of its own). Unknown targets and schedules change nothing. */
export async function assignSchedule(
  db: PluginDb,
  type: RetentionTargetType,
  id: number,
  scheduleId: number | null
): Promise<EffectiveRetention> {
  await db.transaction(async (tx) => {
    await targetRow(tx, type, id)
    if (scheduleId !== null) {
      const schedule = await tx.table('retention_schedules').select('id').where('id', scheduleId).forUpdate().first()
      if (!schedule) throw fail('retention_schedule_not_found', 404)
    }
    await tx.table(TABLES[type]).where('id', id).update({ retention_schedule_id: scheduleId })
  })
  return effectiveOf(db, type, id)
}

/** Every folder, index and document with a schedule of its own. */
export async function listAssignments(db: PluginDb): Promise<AssignmentRow[]> {
  const schedules = await loadSchedules(db)
  const out: AssignmentRow[] = []
  for (const type of RETENTION_TARGET_TYPES) {
    const query = db
      .table(TABLES[type])
      .select('id', 'name', 'retention_schedule_id')
      .whereNotNull('retention_schedule_id')
    if (type !== 'index') query.whereNull('trashed_at')
    for (const row of (await query.orderBy('name')) as { id: number; name: string; retention_schedule_id: number }[]) {
      const schedule = schedules.get(Number(row.retention_schedule_id))
      if (!schedule) continue
      out.push({
        target_type: type,
        target_id: Number(row.id),
        target_name: String(row.name),
        schedule_id: schedule.id,
        schedule_code: schedule.code,
      })
    }
  }
  return out
}
