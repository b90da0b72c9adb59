import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { STATE_ID_PATTERN } from '@tramita/contract'
import { done, fail } from '#lib/envelope'
import { field } from '#lib/input'
import { message } from '#lib/messages'
import { readSignedId } from '#lib/signed_id'
import { auditRequest } from '#services/audit'
import { fourEyesBar, mayDo } from '#services/process/assignees'
import { versionById } from '#services/process/definitions'
import {
  claimTask,
  filterOptions,
  formIdByKey,
  pendingFor,
  PER_PAGE_MAX,
  releaseTask,
  startableFor,
  startedBy,
  summaryFor,
  viewerOf,
  type ClaimOutcome,
  type InboxFilters,
  type Viewer,
} from '#services/process/inbox'

const STATE_ID = new RegExp(STATE_ID_PATTERN)
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
/** An ISO instant with its zone, as the browser's toISOString() writes it. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/
const DAY_MS = 86_400_000

/**
 * The signed-in user's inbox (issue 5 item 6): GET pending, started, startable, filters, summary;
 * PUT claim and release of a role or area step. Listings take search, process (form key), state,
 * from, to (YYYY-MM-DD, a whole UTC day; or ISO instants, `to` exclusive), page and per_page (1–100).
 * A bad filter value is a 400 naming the filter, never an empty list.
 */
export default class InboxController {
  /** GET /inside/inbox/summary: counts and the first pending steps, for the home page. */
  async summary(ctx: HttpContext) {
    const viewer = await viewerOf(ctx.principal!)
    return done(await summaryFor(ctx.principal!, viewer))
  }

  /** GET /inside/inbox/pending: the steps waiting for the caller. */
  async pending(ctx: HttpContext) {
    const viewer = await viewerOf(ctx.principal!)
    return done(await pendingFor(viewer, await this.filters(ctx)))
  }

  /** GET /inside/inbox/started: the cases the caller started. */
  async started(ctx: HttpContext) {
    const viewer = await viewerOf(ctx.principal!)
    return done(await startedBy(viewer, await this.filters(ctx)))
  }

  /** GET /inside/inbox/startable (search): the processes the caller may start, with their links. */
  async startable(ctx: HttpContext) {
    const viewer = await viewerOf(ctx.principal!)
    const search = field(ctx, 'search', { max: 100, required: false })
    return done({ processes: await startableFor(ctx.principal!, viewer, search) })
  }

  /** GET /inside/inbox/filters: the processes (with their states) the caller's lists can be filtered by. */
  async filterValues(ctx: HttpContext) {
    return done(await filterOptions(await viewerOf(ctx.principal!)))
  }

  /** PUT /inside/inbox/claim (token: the task token): take a role or area step. */
  async claim(ctx: HttpContext) {
    const { viewer, taskId } = await this.claimable(ctx, false)
    const outcome = await claimTask(taskId, viewer.userId)
    if (outcome !== 'claimed') this.refuse(ctx, outcome)
    return done({ message: message(ctx, 'inbox.claimed'), task: await this.row(viewer, taskId) })
  }

  /** PUT /inside/inbox/release (token): give a claimed step back; administrators may release anyone's. */
  async release(ctx: HttpContext) {
    const { viewer, taskId, task } = await this.claimable(ctx, true)
    // A member gives back their own claim; an administrator, anyone's (someone away holds a step).
    const outcome = await releaseTask(taskId, viewer.userId, viewer.admin)
    if (outcome !== 'released') this.refuse(ctx, outcome)
    if (task.claimed_by !== null && Number(task.claimed_by) !== viewer.userId) {
      await auditRequest(ctx, 'task.release_other', { type: 'task', id: taskId }, { claimed_by: task.claimed_by })
    }
    return done({ message: message(ctx, 'inbox.released'), task: await this.row(viewer, taskId) })
  }

  private refuse(ctx: HttpContext, outcome: ClaimOutcome): never {
    if (outcome === 'gone') fail(message(ctx, 'tarea_realizada'), 409)
    if (outcome === 'not_claimed') fail(message(ctx, 'inbox.not_claimed'), 409)
    return fail(message(ctx, 'inbox.claimed_by_other'), 409)
  }

  /** The task as the pending list shows it now (null when it no longer is the caller's). */
  private async row(viewer: Viewer, taskId: number) {
    const page = await pendingFor(viewer, this.defaults(), taskId)
    return page.rows[0] ?? null
  }

  /**
   * The task named by `token`: pending on an open case, a role or area step, and one of the caller's
   * (an administrator may also release a step someone else holds).
   */
  private async claimable(ctx: HttpContext, releasing: boolean) {
    const taskId = readSignedId('task', ctx.request.input('token'))
    const task = taskId
      ? await db
          .from('tasks as t')
          .join('cases as c', 'c.id', 't.case_id')
          .where('t.id', taskId)
          .select(
            't.id',
            't.status',
            't.assignee_type',
            't.assignee_id',
            't.claimed_by',
            't.four_eyes',
            't.assigned_by',
            'c.status as case_status',
            'c.created_by'
          )
          .first()
      : null
    if (!taskId || !task) fail(message(ctx, 'engine.not_found'), 404)
    if (task.status !== 'pending' || task.case_status !== 'open') fail(message(ctx, 'tarea_realizada'), 409)
    if (task.assignee_type !== 'rol' && task.assignee_type !== 'area') fail(message(ctx, 'inbox.not_claimable'))
    const viewer = await viewerOf(ctx.principal!)
    const member = mayDo(
      { assignee_type: task.assignee_type, assignee_id: Number(task.assignee_id), claimed_by: null },
      ctx.principal!,
      viewer
    )
    if (!member && !(releasing && viewer.admin)) fail(message(ctx, 'engine.not_yours'), 403)
    // A member the four-eyes rule bars would hold the step away from those who may do it.
    const barred = releasing ? null : fourEyesBar(task, task.created_by, viewer.userId)
    if (barred) fail(message(ctx, barred), 403)
    return { viewer, taskId, task }
  }

  private defaults(): InboxFilters {
    return { search: '', formId: null, state: null, from: null, to: null, page: 1, perPage: 20 }
  }

  /** Reads and checks the listing filters; any bad value is refused with the filter's name. */
  private async filters(ctx: HttpContext): Promise<InboxFilters> {
    const bad = (name: string): never => fail(message(ctx, 'inbox.bad_filter', { field: name }))
    const text = (name: string, max: number) => {
      const raw = ctx.request.input(name)
      if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') bad(name)
      const value = raw === undefined || raw === null ? '' : String(raw).trim()
      if ([...value].length > max) bad(name)
      return value
    }
    const int = (name: string, fallback: number, max: number) => {
      const value = text(name, 10)
      if (value === '') return fallback
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) bad(name)
      return Number(value)
    }
    const date = (name: string, end: boolean) => {
      const value = text(name, 40)
      if (value === '') return null
      if (DATE_ONLY.test(value)) {
        const day = Date.parse(`${value}T00:00:00Z`)
        if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== value) bad(name)
        return new Date(end ? day + DAY_MS : day)
      }
      const at = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN
      if (Number.isNaN(at)) bad(name)
      return new Date(at)
    }

    const filters = this.defaults()
    filters.search = text('search', 100)
    filters.page = int('page', 1, 10_000)
    filters.perPage = int('per_page', 20, PER_PAGE_MAX)
    filters.from = date('from', false)
    filters.to = date('to', true)
    if (filters.from && filters.to && filters.from >= filters.to) fail(message(ctx, 'inbox.bad_range'))

    const processKey = text('process', 64)
    let states: string[] | null = null
    if (processKey) {
      const form = await formIdByKey(processKey)
      if (!form) fail(message(ctx, 'inbox.unknown_process', { value: processKey }))
      filters.formId = form.id
      const version = form.versionId === null ? null : await versionById(form.versionId)
      states = version ? version.process.states.map((s) => s.id) : []
    }
    const state = text('state', 40)
    if (state) {
      // Without a process the state is matched by id across processes; with one it must be one of its states.
      if (!STATE_ID.test(state) || (states !== null && !states.includes(state))) {
        fail(message(ctx, 'inbox.unknown_state', { value: state }))
      }
      filters.state = state
    }
    return filters
  }
}
