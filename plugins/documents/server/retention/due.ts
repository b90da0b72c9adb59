import { isUniqueViolation, type PluginDb, type PluginServices } from '@tramita/plugin-api'
import { confirmScreenPath, type DueRow } from '../../shared/retention.js'
import { documentsSettings } from '../library/usage.js'
import { iso } from '../library/fields.js'
import { appliedSchedules, type FileFacts } from './assignments.js'
import { loadSchedules, totalYears, type Schedule } from './schedules.js'

/**
 * What is due and the confirmations mailed for it. A document's retention starts when it was created in
 * the library (its `created_at`: kept through renames, moves and new versions, so editing a document never
 * postpones its disposition); it is due once the years in the active and the central archive have passed
 * since then. Archived documents and those in the trash are not due. One code per document is open at a
 * time: a document whose code is open (unused, not expired) is not mailed again; once the code expires
 * it is mailed a new one.
 */

export type DueDeps = Pick<PluginServices, 'db' | 'people' | 'settings' | 'tokens' | 'mail' | 'http'>

/** Files read per step. */
const PAGE = 500
/** A code inserted but not yet mailed this long ago: the run that made it stopped; a new code replaces it. */
const UNMAILED_MS = 10 * 60_000

/** `date` plus whole calendar years (29 February becomes 1 March). */
export function addYears(date: Date, years: number): Date {
  const out = new Date(date.getTime())
  out.setUTCFullYear(out.getUTCFullYear() + years)
  return out
}

/** A timestamp as the engines return it (SQLite: ms; MariaDB: Date). */
export function dateOf(value: unknown): Date {
  if (value instanceof Date) return value
  if (typeof value === 'number') return new Date(value)
  const text = String(value)
  return /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text.replace(' ', 'T'))
}

export interface DueItem {
  fileId: number
  fileName: string
  ownerId: number
  schedule: Schedule
  fromType: DueRow['from_type']
  fromId: number
  responsibleId: number
  dueSince: Date
  pendingUntil: Date | null
}

/** The documents due at `now`, by id. */
export async function dueDocuments(db: PluginDb, now: Date): Promise<DueItem[]> {
  const schedules = await loadSchedules(db)
  if (schedules.size === 0) return []
  const shortest = Math.min(...[...schedules.values()].map(totalYears))
  const latestStart = addYears(now, -shortest)
  const out: DueItem[] = []
  for (let after = 0; ;) {
    const files = (await db
      .table('files')
      .select('id', 'name', 'owner_id', 'folder_id', 'retention_schedule_id', 'created_at')
      .whereNull('trashed_at')
      .whereNull('archived_at')
      .where('created_at', '<=', latestStart)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)) as (FileFacts & { name: string; owner_id: number; created_at: unknown })[]
    if (files.length === 0) break
    after = Number(files[files.length - 1].id)
    const applied = await appliedSchedules(
      db,
      files.map((f) => ({
        id: Number(f.id),
        folder_id: f.folder_id === null ? null : Number(f.folder_id),
        retention_schedule_id: f.retention_schedule_id === null ? null : Number(f.retention_schedule_id),
      })),
      schedules
    )
    const due: DueItem[] = []
    for (const file of files) {
      const found = applied.get(Number(file.id))
      const schedule = found && schedules.get(found.scheduleId)
      if (!found || !schedule) continue
      const dueSince = addYears(dateOf(file.created_at), totalYears(schedule))
      if (dueSince > now) continue
      due.push({
        fileId: Number(file.id),
        fileName: String(file.name),
        ownerId: Number(file.owner_id),
        schedule,
        fromType: found.fromType,
        fromId: found.fromId,
        responsibleId: schedule.responsible_id ?? Number(file.owner_id),
        dueSince,
        pendingUntil: null,
      })
    }
    if (due.length) {
      const open = await db
        .table('retention_requests')
        .select('open_file_id', 'expires_at')
        .whereIn(
          'open_file_id',
          due.map((d) => d.fileId)
        )
        .where('expires_at', '>', now)
        .whereNotNull('mailed_at')
      const until = new Map(
        (open as { open_file_id: number; expires_at: unknown }[]).map((r) => [
          Number(r.open_file_id),
          dateOf(r.expires_at),
        ])
      )
      for (const item of due) item.pendingUntil = until.get(item.fileId) ?? null
      out.push(...due)
    }
  }
  return out
}

/** The due list as the admin's route and the CLI show it. */
export async function dueRows(deps: Pick<PluginServices, 'db' | 'people'>, now = new Date()): Promise<DueRow[]> {
  const items = await dueDocuments(deps.db, now)
  const people = items.length ? await deps.people.byIds([...new Set(items.map((i) => i.responsibleId))]) : new Map()
  return items.map((item) => ({
    file_id: item.fileId,
    file_name: item.fileName,
    schedule_id: item.schedule.id,
    schedule_code: item.schedule.code,
    from_type: item.fromType,
    from_id: item.fromId,
    responsible: { id: item.responsibleId, name: people.get(item.responsibleId)?.name ?? '' },
    due_since: item.dueSince.toISOString(),
    pending_until: item.pendingUntil ? item.pendingUntil.toISOString() : null,
  }))
}

/** The schedule as a mailed code keeps it. */
function snapshot(schedule: Schedule): string {
  return JSON.stringify({
    code: schedule.code,
    serie: schedule.serie,
    subserie: schedule.subserie,
    doc_type: schedule.doc_type,
    disposition: schedule.disposition,
    labels: schedule.labels,
  })
}

/**
 * Opens a code for the item unless one is open: the row is written before the mail, under the unique
 * `open_file_id`, so of two runs at once one writes it and mails, the other is refused by the key and
 * does not. Each step is one statement (no transaction holding a gap lock while another inserts: that
 * deadlocked two runs on MariaDB). Answers the code to mail, or null.
 */
async function openCode(
  deps: DueDeps,
  item: DueItem,
  days: number,
  now: Date
): Promise<{ id: number; code: string } | null> {
  const { token, hash } = deps.tokens.create()
  const expires = new Date(now.getTime() + days * 24 * 3600 * 1000)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const [id] = await deps.db.table('retention_requests').insert({
        file_id: item.fileId,
        open_file_id: item.fileId,
        user_id: item.responsibleId,
        schedule_id: item.schedule.id,
        schedule: snapshot(item.schedule),
        file_name: item.fileName.slice(0, 255),
        code_hash: hash,
        expires_at: expires,
        created_at: now,
      })
      return { id: Number(id), code: token }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    // A code is open for this document (this run's or another's).
    const open = await deps.db
      .table('retention_requests')
      .select('id', 'code_hash', 'mailed_at', 'created_at', 'expires_at')
      .where('open_file_id', item.fileId)
      .first()
    if (!open) continue
    if (dateOf(open.expires_at) <= now) {
      // Expired unused: it frees its document for a new code (whichever run clears it, one inserts next).
      await deps.db
        .table('retention_requests')
        .where('id', open.id)
        .where('open_file_id', item.fileId)
        .update({ open_file_id: null })
      continue
    }
    if (open.mailed_at !== null || dateOf(open.created_at).getTime() > now.getTime() - UNMAILED_MS) return null
    // Written but never mailed (its run stopped between): a new code replaces it, once.
    const changed = await deps.db
      .table('retention_requests')
      .where('id', open.id)
      .where('code_hash', open.code_hash)
      .whereNull('mailed_at')
      .update({ code_hash: hash, expires_at: expires, created_at: now })
    return changed === 1 ? { id: Number(open.id), code: token } : null
  }
  return null
}

export interface IssueSummary {
  due: number
  mailed: number
}

/**
 * The daily job and `tramita documents:retention`: mails the responsible person of each due document a
 * confirmation link, once per open code. Runs twice with the same effect.
 */
export async function issueConfirmations(
  deps: DueDeps,
  now = new Date(),
  onMailed?: (item: DueItem) => void
): Promise<IssueSummary> {
  const settings = await documentsSettings(deps.settings)
  const items = await dueDocuments(deps.db, now)
  let mailed = 0
  for (const item of items) {
    if (item.pendingUntil) continue
    const opened = await openCode(deps, item, settings.retentionCodeDays, now)
    if (!opened) continue
    await deps.mail.send(
      { userId: item.responsibleId },
      {
        subject: 'retention_mail_subject',
        text: 'retention_mail_text',
        params: {
          name: item.fileName,
          code: item.schedule.code,
          serie: item.schedule.serie,
          since: iso(item.dueSince).slice(0, 10),
          days: settings.retentionCodeDays,
        },
        link: deps.http.url(confirmScreenPath(opened.code, item.responsibleId)),
      }
    )
    await deps.db.table('retention_requests').where('id', opened.id).update({ mailed_at: new Date() })
    mailed++
    onMailed?.(item)
  }
  return { due: items.length, mailed }
}
