import db from '@adonisjs/lucid/services/db'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import { isAdmin, type Principal } from '#services/auth/principal'
import { affectedRows } from '#lib/db_result'
import { mayStart, membershipsOf } from './assignees.js'
import { latestVersions, versionsByIds, type LoadedVersion } from './definitions.js'
import { caseKey, taskToken } from './engine.js'
import { taskPath } from './notices.js'

/**
 * The inbox (issue 5 item 6): the steps waiting for a signed-in user, the cases they started, the
 * processes they may start, and claiming a role or area step. Each listing is one query (rows and
 * their total through COUNT(*) OVER (), which SQLite 3.25+ and MariaDB 10.2+ both have), plus one for
 * the caller's areas and at most one for process versions not cached yet.
 */

type Query = DatabaseQueryBuilderContract<any>

/** Who is asking: the user, their role and area ids, and whether they administer. */
export interface Viewer {
  userId: number
  roles: number[]
  areas: number[]
  admin: boolean
}

export async function viewerOf(principal: Principal): Promise<Viewer> {
  const { roles, areas } = await membershipsOf(principal)
  return { userId: principal.user.id, roles, areas, admin: isAdmin(principal) }
}

export interface InboxFilters {
  /** Case code or process (form) name, case-insensitive substring; '' for none. */
  search: string
  formId: number | null
  state: string | null
  /** Inclusive lower bound and exclusive upper bound of the listing's date. */
  from: Date | null
  to: Date | null
  page: number
  perPage: number
}

export const PER_PAGE_MAX = 100

/** Tasks (under `alias`) assigned to the viewer directly, or to one of their roles or areas. */
export function assignedTo(q: Query, viewer: Viewer, alias = 't'): Query {
  return q.where((any) => {
    any.where((w) => w.where(`${alias}.assignee_type`, 'user').where(`${alias}.assignee_id`, viewer.userId))
    if (viewer.roles.length > 0) {
      any.orWhere((w) => w.where(`${alias}.assignee_type`, 'rol').whereIn(`${alias}.assignee_id`, viewer.roles))
    }
    if (viewer.areas.length > 0) {
      any.orWhere((w) => w.where(`${alias}.assignee_type`, 'area').whereIn(`${alias}.assignee_id`, viewer.areas))
    }
  })
}

/**
 * Cases (under `c`) the viewer may look at, as the form screen's `see` decides: those they started
 * and those with a task that was theirs (assigned, claimed or done by them). Administrators see all.
 */
export function visibleTo(q: Query, viewer: Viewer): Query {
  if (viewer.admin) return q
  return q.where((w) =>
    w
      .where('c.created_by', viewer.userId)
      .orWhereIn(
        'c.id',
        assignedTo(db.from('tasks as vt'), viewer, 'vt')
          .orWhere('vt.claimed_by', viewer.userId)
          .orWhere('vt.done_by', viewer.userId)
          .select('vt.case_id')
      )
  )
}

/** '!' escapes LIKE's wildcards; backslash would mean different things to SQLite and MySQL. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`
}

function applyFilters(q: Query, filters: InboxFilters, dateColumn: string): Query {
  if (filters.formId !== null) q.where('c.form_id', filters.formId)
  if (filters.state !== null) q.where('c.state', filters.state)
  if (filters.from) q.where(dateColumn, '>=', filters.from)
  if (filters.to) q.where(dateColumn, '<', filters.to)
  if (filters.search) {
    const like = likePattern(filters.search)
    q.where((w) =>
      w.whereRaw(`LOWER(c.code) LIKE ? ESCAPE '!'`, [like]).orWhereRaw(`LOWER(f.name) LIKE ? ESCAPE '!'`, [like])
    )
  }
  return q
}

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | number | Date).toISOString()

function stateOf(version: LoadedVersion | undefined, id: string) {
  const state = version?.process.states.find((s) => s.id === id)
  return { id, label: state?.label ?? id, color: state?.color ?? '' }
}

export interface Page<T> {
  rows: T[]
  total: number
  page: number
  per_page: number
}

/** Runs a page query that selected `total_rows`; a page past the end counts with one more query. */
async function paged<R extends { total_rows?: unknown }>(
  q: Query,
  countOf: () => Query,
  filters: InboxFilters
): Promise<{ rows: R[]; total: number }> {
  const rows = (await q
    .select(db.raw('COUNT(*) OVER () as total_rows'))
    .limit(filters.perPage)
    .offset((filters.page - 1) * filters.perPage)) as R[]
  if (rows.length > 0) return { rows, total: Number(rows[0].total_rows) }
  if (filters.page === 1) return { rows, total: 0 }
  const counted = await countOf().count('* as n').first()
  return { rows, total: Number(counted?.n ?? 0) }
}

export interface PendingRow {
  token: string
  key_process: string
  code: string
  form_key: string
  process: string
  step_id: string
  step: string
  kind: 'fill' | 'approve'
  state: { id: string; label: string; color: string }
  assignee_type: string
  assignee: string
  /** Role and area steps are claimed by one member before (or by) doing them. */
  claimable: boolean
  claimed_by: { id: number; name: string } | null
  claimed_at: string | null
  assigned_at: string | null
  started_at: string | null
  updated_at: string | null
  link: string
}

/** Pending tasks of open cases assigned to the viewer, leaving out those another member claimed. */
function pendingBase(viewer: Viewer): Query {
  const q = db
    .from('tasks as t')
    .join('cases as c', 'c.id', 't.case_id')
    .join('forms as f', 'f.id', 'c.form_id')
    .where('t.status', 'pending')
    .where('c.status', 'open')
  assignedTo(q, viewer)
  q.where((w) => w.whereNull('t.claimed_by').orWhere('t.claimed_by', viewer.userId))
  return notBarredByFourEyes(q, viewer.userId)
}

/**
 * Leaves out the tasks the four-eyes rule bars the viewer from (assignees.ts fourEyesBar, as a query):
 * a role member who started the case, or did its previous step, neither sees nor claims its approval.
 */
function notBarredByFourEyes(q: Query, userId: number): Query {
  return q.where((w) =>
    w
      .where('t.four_eyes', false)
      .orWhere((barred) =>
        barred
          .where((s) => s.whereNull('c.created_by').orWhereNot('c.created_by', userId))
          .where((p) => p.whereNull('t.assigned_by').orWhereNot('t.assigned_by', userId))
      )
  )
}

export async function pendingFor(viewer: Viewer, filters: InboxFilters, taskId?: number): Promise<Page<PendingRow>> {
  const base = () => {
    const q = applyFilters(pendingBase(viewer), filters, 't.created_at')
    return taskId === undefined ? q : q.where('t.id', taskId)
  }
  const q = base()
    .leftJoin('users as cu', 'cu.id', 't.claimed_by')
    .select(
      't.id',
      't.case_id',
      't.step_id',
      't.kind',
      't.assignee_type',
      't.assignee_text',
      't.claimed_by',
      't.claimed_at',
      't.created_at',
      'c.code',
      'c.state',
      'c.form_version_id',
      'c.created_at as case_created_at',
      'c.updated_at as case_updated_at',
      'f.key as form_key',
      'f.name as form_name',
      'cu.first_name as claimer_first',
      'cu.last_name as claimer_last'
    )
    .orderBy('t.id', 'desc')
  const { rows, total } = await paged<Record<string, any>>(q, base, filters)
  const versions = await versionsByIds(rows.map((r) => Number(r.form_version_id)))
  return {
    rows: rows.map((r) => {
      const version = versions.get(Number(r.form_version_id))
      const step = version?.process.steps.find((s) => s.id === r.step_id)
      return {
        token: taskToken(r.id),
        key_process: caseKey(r.case_id),
        code: r.code,
        form_key: r.form_key,
        process: r.form_name,
        step_id: r.step_id,
        step: step?.label ?? r.step_id,
        kind: r.kind === 'approve' ? 'approve' : 'fill',
        state: stateOf(version, r.state),
        assignee_type: r.assignee_type,
        assignee: r.assignee_text,
        claimable: r.assignee_type === 'rol' || r.assignee_type === 'area',
        claimed_by:
          r.claimed_by === null
            ? null
            : { id: Number(r.claimed_by), name: `${r.claimer_first ?? ''} ${r.claimer_last ?? ''}`.trim() },
        claimed_at: iso(r.claimed_at),
        assigned_at: iso(r.created_at),
        started_at: iso(r.case_created_at),
        updated_at: iso(r.case_updated_at),
        link: taskPath(r.form_key, r.case_id, r.id, r.kind),
      }
    }),
    total,
    page: filters.page,
    per_page: filters.perPage,
  }
}

export interface StartedRow {
  key_process: string
  code: string
  form_key: string
  process: string
  state: { id: string; label: string; color: string }
  status: 'open' | 'ended'
  /** Who the case waits on now (the pending step's assignee), '' when none. */
  waiting_on: string
  started_at: string | null
  updated_at: string | null
  ended_at: string | null
  link: string
}

function startedBase(viewer: Viewer): Query {
  return db.from('cases as c').join('forms as f', 'f.id', 'c.form_id').where('c.created_by', viewer.userId)
}

export async function startedBy(viewer: Viewer, filters: InboxFilters): Promise<Page<StartedRow>> {
  const base = () => applyFilters(startedBase(viewer), filters, 'c.created_at')
  const q = base()
    .select(
      'c.id',
      'c.code',
      'c.state',
      'c.status',
      'c.form_version_id',
      'c.created_at',
      'c.updated_at',
      'c.ended_at',
      'f.key as form_key',
      'f.name as form_name',
      db.raw(
        `(select t2.assignee_text from tasks t2 where t2.case_id = c.id and t2.status = 'pending' order by t2.id desc limit 1) as waiting_on`
      )
    )
    // Served by the (created_by, updated_at) index.
    .orderBy('c.updated_at', 'desc')
    .orderBy('c.id', 'desc')
  const { rows, total } = await paged<Record<string, any>>(q, base, filters)
  const versions = await versionsByIds(rows.map((r) => Number(r.form_version_id)))
  return {
    rows: rows.map((r) => {
      const key = caseKey(r.id)
      return {
        key_process: key,
        code: r.code,
        form_key: r.form_key,
        process: r.form_name,
        state: stateOf(versions.get(Number(r.form_version_id)), r.state),
        status: r.status === 'ended' ? 'ended' : 'open',
        waiting_on: r.waiting_on ?? '',
        started_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        ended_at: iso(r.ended_at),
        link: `/forms/see?${new URLSearchParams({ data: r.form_key, key_process: key })}`,
      }
    }),
    total,
    page: filters.page,
    per_page: filters.perPage,
  }
}

export interface StartableRow {
  key: string
  name: string
  label: string
  color: string
  link: string
}

/** Published processes whose starters include the viewer (newest version of each form decides). */
export async function startableFor(principal: Principal, viewer: Viewer, search = ''): Promise<StartableRow[]> {
  const needle = search.trim().toLowerCase()
  // Sorted here, not by the database: SQLite and MariaDB collate accented names differently.
  const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true })
  return (await latestVersions())
    .sort((a, b) => byName.compare(a.formName, b.formName))
    .filter((v) => mayStart(v.process, principal, viewer))
    .filter(
      (v) => !needle || v.formName.toLowerCase().includes(needle) || v.process.label.toLowerCase().includes(needle)
    )
    .map((v) => ({
      key: v.formKey,
      name: v.formName,
      label: v.process.label,
      color: v.process.color,
      link: `/forms/new?${new URLSearchParams({ data: v.formKey })}`,
    }))
}

/** A form by its key (the filters name processes by key, as links do). */
export async function formIdByKey(key: string): Promise<{ id: number; versionId: number | null } | null> {
  const row = await db
    .from('forms as f')
    .where('f.key', key)
    .select(
      'f.id',
      db.raw(
        '(select max(v.id) from form_versions v where v.form_id = f.id and v.published_at is not null) as version_id'
      )
    )
    .first()
  return row ? { id: Number(row.id), versionId: row.version_id === null ? null : Number(row.version_id) } : null
}

/** The processes the viewer has something in (pending for them or started by them), with their states. */
export async function filterOptions(viewer: Viewer) {
  const pendingForms = pendingBase(viewer).select('c.form_id')
  const startedForms = db.from('cases as c').where('c.created_by', viewer.userId).select('c.form_id')
  const rows = (await db
    .from('forms as f')
    .where((w) => w.whereIn('f.id', pendingForms).orWhereIn('f.id', startedForms))
    .orderBy('f.name')
    .limit(500)
    .select(
      'f.key',
      'f.name',
      db.raw(
        '(select max(v.id) from form_versions v where v.form_id = f.id and v.published_at is not null) as version_id'
      )
    )) as { key: string; name: string; version_id: number | null }[]
  const versions = await versionsByIds(rows.filter((r) => r.version_id !== null).map((r) => Number(r.version_id)))
  return {
    processes: rows.map((r) => ({
      key: r.key,
      name: r.name,
      states: (versions.get(Number(r.version_id))?.process.states ?? []).map((s) => ({
        id: s.id,
        label: s.label,
        color: s.color,
      })),
    })),
  }
}

/** The home page's counts and first pending steps. */
export async function summaryFor(principal: Principal, viewer: Viewer, first = 5) {
  const filters: InboxFilters = { search: '', formId: null, state: null, from: null, to: null, page: 1, perPage: first }
  const [byKind, byStatus, pending, startable] = await Promise.all([
    pendingBase(viewer)
      .groupBy('t.kind', 't.claimed_by')
      .select('t.kind', 't.claimed_by', db.raw('COUNT(*) as n')) as Promise<
      { kind: string; claimed_by: number | null; n: number | string }[]
    >,
    db
      .from('cases as c')
      .where('c.created_by', viewer.userId)
      .groupBy('c.status')
      .select('c.status', db.raw('COUNT(*) as n')) as Promise<{ status: string; n: number | string }[]>,
    pendingFor(viewer, filters),
    startableFor(principal, viewer),
  ])
  const sum = (rows: { n: number | string }[]) => rows.reduce((total, r) => total + Number(r.n), 0)
  return {
    counts: {
      pending: sum(byKind),
      to_fill: sum(byKind.filter((r) => r.kind !== 'approve')),
      to_approve: sum(byKind.filter((r) => r.kind === 'approve')),
      claimed_by_me: sum(byKind.filter((r) => r.claimed_by !== null)),
      started_open: sum(byStatus.filter((r) => r.status === 'open')),
      started_ended: sum(byStatus.filter((r) => r.status === 'ended')),
      startable: startable.length,
    },
    pending: pending.rows,
  }
}

export type ClaimOutcome = 'claimed' | 'released' | 'taken' | 'not_claimed' | 'gone'

/**
 * Claims a pending role or area task for the user: one conditional update, so of two members
 * claiming at once exactly one gets it. Claiming a task one already holds is a no-op success.
 */
export async function claimTask(taskId: number, userId: number): Promise<ClaimOutcome> {
  const updated = await db
    .from('tasks')
    .where('id', taskId)
    .where('status', 'pending')
    .whereIn('assignee_type', ['rol', 'area'])
    .where((w) => w.whereNull('claimed_by').orWhere('claimed_by', userId))
    .update({ claimed_by: userId, claimed_at: new Date() })
  if (affectedRows(updated) > 0) return 'claimed'
  const now = await db.from('tasks').where('id', taskId).select('status').first()
  return now?.status === 'pending' ? 'taken' : 'gone'
}

/** Gives a claimed task back to its role or area; `anyone` (administrators) may release another's claim. */
export async function releaseTask(taskId: number, userId: number, anyone: boolean): Promise<ClaimOutcome> {
  const updated = await db
    .from('tasks')
    .where('id', taskId)
    .where('status', 'pending')
    .where((w) => (anyone ? w.whereNotNull('claimed_by') : w.where('claimed_by', userId)))
    .update({ claimed_by: null, claimed_at: null })
  if (affectedRows(updated) > 0) return 'released'
  const now = await db.from('tasks').where('id', taskId).select('status', 'claimed_by').first()
  if (now?.status !== 'pending') return 'gone'
  return now.claimed_by === null ? 'not_claimed' : 'taken'
}
