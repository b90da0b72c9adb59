import {
  isUniqueViolation,
  PluginFailure,
  type PluginDb,
  type PluginPeople,
  type PluginPrincipal,
} from '@tramita/plugin-api'
import {
  COLOR,
  DISPOSITIONS,
  RETENTION_LIMITS,
  type Disposition,
  type RetentionLabel,
  type ScheduleInput,
  type ScheduleRow,
} from '../../shared/retention.js'
import { iso } from '../library/fields.js'

/**
 * Retention schedules (TRD): administrators make, change and delete them. Every field is checked before
 * anything is written; a refusal stores nothing.
 */

export type ScheduleDeps = { db: PluginDb; people: Pick<PluginPeople, 'byIds'> }

const fail = (key: string, status = 400) => new PluginFailure(`documents.${key}`, status)

/** A schedule as the rules read it. */
export interface Schedule extends ScheduleInput {
  id: number
  updated_at: unknown
}

/** The raw fields of a request, read by the route. */
export interface ScheduleFields {
  code?: string
  serie?: string
  subserie?: string
  doc_type?: string
  active_years?: string
  central_years?: string
  disposition?: string
  responsible_id?: string
  labels?: unknown
}

function text(value: string | undefined, required: boolean, max: number, key: string): string {
  const trimmed = (value ?? '').trim()
  if ((required && trimmed === '') || [...trimmed].length > max) throw fail(key)
  return trimmed
}

function years(value: string | undefined): number {
  const trimmed = (value ?? '').trim()
  if (!/^\d{1,3}$/.test(trimmed) || Number(trimmed) > RETENTION_LIMITS.yearsMax) throw fail('retention_bad_years')
  return Number(trimmed)
}

function labelsOf(value: unknown): RetentionLabel[] {
  if (value === undefined || value === null || value === '') return []
  if (!Array.isArray(value) || value.length > RETENTION_LIMITS.labels) throw fail('retention_bad_labels')
  const seen = new Set<string>()
  return value.map((entry) => {
    const { name, color } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>
    const clean = typeof name === 'string' ? name.trim() : ''
    if (!clean || [...clean].length > RETENTION_LIMITS.labelNameMax || typeof color !== 'string' || !COLOR.test(color))
      throw fail('retention_bad_labels')
    if (seen.has(clean.toLowerCase())) throw fail('retention_bad_labels')
    seen.add(clean.toLowerCase())
    return { name: clean, color: color.toLowerCase() }
  })
}

/** The schedule's fields checked (a responsible person must be a user). */
export async function checkSchedule(deps: ScheduleDeps, fields: ScheduleFields): Promise<ScheduleInput> {
  const max = RETENTION_LIMITS.textMax
  const disposition = (fields.disposition ?? '').trim() as Disposition
  if (!DISPOSITIONS.includes(disposition)) throw fail('retention_bad_disposition')
  const responsibleText = (fields.responsible_id ?? '').trim()
  let responsible: number | null = null
  if (responsibleText !== '' && responsibleText !== 'null') {
    if (!/^[1-9]\d{0,9}$/.test(responsibleText)) throw fail('retention_bad_responsible')
    responsible = Number(responsibleText)
    if (!(await deps.people.byIds([responsible])).has(responsible)) throw fail('retention_bad_responsible')
  }
  return {
    code: text(fields.code, true, RETENTION_LIMITS.codeMax, 'retention_bad_code'),
    serie: text(fields.serie, true, max, 'retention_bad_serie'),
    subserie: text(fields.subserie, false, max, 'retention_bad_serie'),
    doc_type: text(fields.doc_type, false, max, 'retention_bad_serie'),
    active_years: years(fields.active_years),
    central_years: years(fields.central_years),
    disposition,
    responsible_id: responsible,
    labels: labelsOf(fields.labels),
  }
}

/** Every schedule, with its labels, by id. */
export async function loadSchedules(db: PluginDb, ids?: readonly number[]): Promise<Map<number, Schedule>> {
  const query = db.table('retention_schedules').select('*')
  if (ids) query.whereIn('id', ids)
  const rows = await query
  const labels = rows.length
    ? await db
        .table('retention_labels')
        .select('schedule_id', 'name', 'color')
        .whereIn(
          'schedule_id',
          rows.map((r: { id: number }) => r.id)
        )
        .orderBy('id')
    : []
  const out = new Map<number, Schedule>()
  for (const row of rows) {
    out.set(Number(row.id), {
      id: Number(row.id),
      code: String(row.code),
      serie: String(row.serie),
      subserie: String(row.subserie ?? ''),
      doc_type: String(row.doc_type ?? ''),
      active_years: Number(row.active_years),
      central_years: Number(row.central_years),
      disposition: row.disposition === 'delete' ? 'delete' : 'archive',
      responsible_id: row.responsible_id === null ? null : Number(row.responsible_id),
      labels: [],
      updated_at: row.updated_at,
    })
  }
  for (const label of labels as { schedule_id: number; name: string; color: string }[]) {
    out.get(Number(label.schedule_id))?.labels.push({ name: label.name, color: label.color })
  }
  return out
}

/** Years from a document's retention start to its disposition. */
export const totalYears = (s: Pick<Schedule, 'active_years' | 'central_years'>) => s.active_years + s.central_years

export async function listSchedules(deps: ScheduleDeps): Promise<ScheduleRow[]> {
  const schedules = [...(await loadSchedules(deps.db)).values()].sort((a, b) => a.code.localeCompare(b.code))
  const counts = new Map<number, number>()
  for (const table of ['folders', 'files', 'indexes']) {
    const rows = await deps.db
      .table(table)
      .select('retention_schedule_id')
      .count('id', 'n')
      .whereNotNull('retention_schedule_id')
      .groupBy('retention_schedule_id')
    for (const row of rows as { retention_schedule_id: number; n: number }[]) {
      const id = Number(row.retention_schedule_id)
      counts.set(id, (counts.get(id) ?? 0) + Number(row.n))
    }
  }
  const responsible = schedules.map((s) => s.responsible_id).filter((id): id is number => id !== null)
  const names = responsible.length ? await deps.people.byIds([...new Set(responsible)]) : new Map()
  return schedules.map((s) => ({
    id: s.id,
    code: s.code,
    serie: s.serie,
    subserie: s.subserie,
    doc_type: s.doc_type,
    active_years: s.active_years,
    central_years: s.central_years,
    disposition: s.disposition,
    responsible:
      s.responsible_id === null ? null : { id: s.responsible_id, name: names.get(s.responsible_id)?.name ?? '' },
    labels: s.labels,
    assignments: counts.get(s.id) ?? 0,
    updated_at: iso(s.updated_at),
  }))
}

async function oneRow(deps: ScheduleDeps, id: number): Promise<ScheduleRow> {
  const row = (await listSchedules(deps)).find((s) => s.id === id)
  if (!row) throw fail('retention_schedule_not_found', 404)
  return row
}

async function writeLabels(db: PluginDb, scheduleId: number, labels: RetentionLabel[]): Promise<void> {
  await db.table('retention_labels').where('schedule_id', scheduleId).delete()
  if (labels.length) await db.table('retention_labels').insert(labels.map((l) => ({ schedule_id: scheduleId, ...l })))
}

function columns(input: ScheduleInput) {
  const { labels: _labels, ...rest } = input
  return rest
}

export async function createSchedule(
  deps: ScheduleDeps,
  who: PluginPrincipal,
  fields: ScheduleFields
): Promise<ScheduleRow> {
  const input = await checkSchedule(deps, fields)
  const id = await deps.db.transaction(async (db) => {
    const taken = await db.table('retention_schedules').select('id').where('code', input.code).first()
    if (taken) throw fail('retention_code_taken', 409)
    const now = new Date()
    let inserted: number[]
    try {
      inserted = await db
        .table('retention_schedules')
        .insert({ ...columns(input), created_by: who.userId, created_at: now, updated_at: now })
    } catch (error) {
      if (isUniqueViolation(error)) throw fail('retention_code_taken', 409)
      throw error
    }
    const made = Number(inserted[0])
    await writeLabels(db, made, input.labels)
    return made
  })
  return oneRow(deps, id)
}

export async function updateSchedule(deps: ScheduleDeps, id: number, fields: ScheduleFields): Promise<ScheduleRow> {
  const input = await checkSchedule(deps, fields)
  await deps.db.transaction(async (db) => {
    const row = await db.table('retention_schedules').select('id').where('id', id).forUpdate().first()
    if (!row) throw fail('retention_schedule_not_found', 404)
    const taken = await db.table('retention_schedules').select('id').where('code', input.code).first()
    if (taken && Number(taken.id) !== id) throw fail('retention_code_taken', 409)
    try {
      await db
        .table('retention_schedules')
        .where('id', id)
        .update({ ...columns(input), updated_at: new Date() })
    } catch (error) {
      if (isUniqueViolation(error)) throw fail('retention_code_taken', 409)
      throw error
    }
    await writeLabels(db, id, input.labels)
  })
  return oneRow(deps, id)
}

/** Deletes a schedule and its assignments. Codes already mailed keep the schedule as it was (their snapshot). */
export async function deleteSchedule(db: PluginDb, id: number): Promise<{ id: number }> {
  await db.transaction(async (tx) => {
    const row = await tx.table('retention_schedules').select('id').where('id', id).forUpdate().first()
    if (!row) throw fail('retention_schedule_not_found', 404)
    for (const table of ['folders', 'files', 'indexes']) {
      await tx.table(table).where('retention_schedule_id', id).update({ retention_schedule_id: null })
    }
    await tx.table('retention_labels').where('schedule_id', id).delete()
    await tx.table('retention_schedules').where('id', id).delete()
  })
  return { id }
}
