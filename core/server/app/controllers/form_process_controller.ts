import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { toStoredValue } from '@tramita/contract'
import { done, fail } from '#lib/envelope'
import { field, jsonField, optionalField } from '#lib/input'
import { message, languageOf } from '#lib/messages'
import { readSignedId } from '#lib/signed_id'
import { platform } from '#services/platform'
import { principalFor, type Principal } from '#services/auth/principal'
import { editValuesRefusal, maySeeCase } from '#services/process/access'
import { fourEyesBar, mayDo, mayStart, membershipsOf } from '#services/process/assignees'
import { latestVersionByKey, versionById, type LoadedVersion } from '#services/process/definitions'
import {
  caseKey,
  completeTask,
  editCase,
  EngineRefusal,
  processVariables,
  startCase,
  taskToken,
  type CaseRow,
  type SaveResult,
  type Submission,
  type TaskRow,
} from '#services/process/engine'
import { latestCaseDocument } from '#services/generated_files/store'
import { initialStateFor } from '#services/process/initial_state'

/** Every column of TaskRow, read beside the case's under `task_` names (both tables have id, status). */
const TASK_COLUMNS = [
  'id',
  'case_id',
  'step_id',
  'kind',
  'assignee_type',
  'assignee_id',
  'assignee_email',
  'assignee_text',
  'status',
  'claimed_by',
  'four_eyes',
  'assigned_by',
] as const satisfies readonly (keyof TaskRow)[]
// A column added to TaskRow and not listed above fails the typecheck here.
const allTaskColumns: Exclude<keyof TaskRow, (typeof TASK_COLUMNS)[number]> extends never ? true : never = true
void allTaskColumns

/** The query parameters of /forms/{case} that are the spec's own; any other is a process variable. */
const OWN_PARAMS = new Set(['data', 'key_process', 'token', 'values', 'invisible', 'case', 'first_load', 'search_load'])

/**
 * The form runtime's calls (spec 000 §7): what a form screen loads, and the four saves (new, enter,
 * approve, see/edit). Callers are signed-in users (the `token` header); an external assignee acts
 * through the task token of the link mailed to them.
 */
export default class FormProcessController {
  /** POST /data/form/info/user/token (type, data, key_process, token) */
  async info(ctx: HttpContext) {
    return this.guard(ctx, async () => {
      const type = field(ctx, 'type', { max: 10 })
      const principal = await this.caller(ctx)
      if (type === 'new') {
        const version = await this.versionFor(ctx)
        if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
        return done(await this.answer(ctx, version, null, null, principal, 'pending'))
      }
      if (type === 'enter' || type === 'approve') {
        const { row, task } = await this.caseAndTaskFor(ctx)
        const version = (await versionById(row.form_version_id))!
        await this.checkMayDo(ctx, row, task, principal)
        const answer = await this.answer(
          ctx,
          version,
          row,
          task,
          principal,
          task.status === 'pending' ? 'pending' : 'done'
        )
        return done({ ...answer, doc_path: await latestCaseDocument(row.id) })
      }
      const row = await this.caseFor(ctx)
      const version = (await versionById(row.form_version_id))!
      if (type === 'see' || type === 'edit') {
        // Nobody signed in: the spec's 401, on which the client sends its user to sign in.
        if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
        if (!(await maySeeCase(principal, row))) fail(message(ctx, 'engine.not_yours'), 403)
        const answer = await this.answer(ctx, version, row, null, principal, row.status === 'open' ? 'pending' : 'done')
        return done({ ...answer, doc_path: await latestCaseDocument(row.id) })
      }
      fail(message(ctx, 'engine.unknown_type', { type }))
    })
  }

  /** POST /data/form/flows/process: case new. */
  async saveNew(ctx: HttpContext) {
    return this.guard(ctx, async () => {
      const principal = await this.caller(ctx)
      if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
      const version = await this.versionFor(ctx)
      if (!mayStart(version.process, principal, await membershipsOf(principal))) {
        fail(message(ctx, 'engine.not_starter'), 403)
      }
      const saved = await startCase(version, principal.user.id, this.submission(ctx, 'flow_values', true))
      return this.saved(ctx, version, saved)
    })
  }

  /** POST /data/form/asignar/process/info: case enter. */
  async saveEnter(ctx: HttpContext) {
    return this.saveTask(ctx, 'fill')
  }

  /** POST /data/form/decision/process/info: case approve. */
  async saveDecision(ctx: HttpContext) {
    return this.saveTask(ctx, 'approve')
  }

  /** POST /data/form/flows/process/edit: see (edit values) and edit. */
  async saveEdit(ctx: HttpContext) {
    return this.guard(ctx, async () => {
      const principal = await this.caller(ctx)
      if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
      const row = await this.caseFor(ctx)
      const refused = editValuesRefusal(principal, row)
      if (refused) fail(message(ctx, refused.key), refused.status)
      const version = (await versionById(row.form_version_id))!
      const saved = await editCase(version, row, principal.user.id, this.submission(ctx, 'flow_values', true))
      return this.saved(ctx, version, saved)
    })
  }

  private async saveTask(ctx: HttpContext, kind: 'fill' | 'approve') {
    return this.guard(ctx, async () => {
      const principal = await this.caller(ctx)
      const { row, task } = await this.caseAndTaskFor(ctx)
      if (task.kind !== kind) fail(message(ctx, 'engine.wrong_route'))
      await this.checkMayDo(ctx, row, task, principal)
      const version = (await versionById(row.form_version_id))!
      const submission = this.submission(ctx, 'flow_values', kind === 'fill')
      let decision: string | undefined
      // Read loosely here (the engine refuses one past DECISION_COMMENT_MAX with the limit in its message).
      const comment = optionalField(ctx, 'comment', 20_000) ?? undefined
      if (kind === 'approve') {
        const parsed = jsonField(ctx, 'decision', true) as unknown
        const picked =
          typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { id: parsed }
        decision = String(picked.id ?? picked.label ?? '')
      }
      const saved = await completeTask(version, row, task, principal?.user.id ?? null, {
        ...submission,
        decision,
        comment,
      })
      return this.saved(ctx, version, saved)
    })
  }

  /** Engine refusals become `fail` answers in the caller's language, with their details. */
  private async guard<T>(ctx: HttpContext, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof EngineRefusal) fail(message(ctx, error.key, error.extra), error.status, error.extra)
      throw error
    }
  }

  private async saved(ctx: HttpContext, version: LoadedVersion, saved: SaveResult) {
    // The assignee mail was staged in the save's transaction; the relay queues it without holding the answer.
    if (saved.notify.length > 0) platform().outbox.kick()
    return done({
      message: message(ctx, 'info_sent_success'),
      id: saved.caseId,
      code_process: saved.code,
      key_process: saved.key,
      state: saved.state,
      ended: saved.ended,
      id_process: version.formId,
      // The done screen links a new case to its public consultation when the process allows it.
      external_consultation: version.process.external_consultation.enable,
      id_form: version.formKey,
    })
  }

  private async caller(ctx: HttpContext): Promise<Principal | null> {
    if (ctx.principal) return ctx.principal
    const token = ctx.request.header('token')
    return token ? principalFor(token) : null
  }

  private submission(ctx: HttpContext, name: string, required: boolean): Submission {
    const values = jsonField(ctx, name, required) ?? {}
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      fail(message(ctx, 'engine.bad_json', { field: name }))
    }
    const goToState = optionalField(ctx, 'go_to_state', 40)?.trim() || undefined
    // The case version the form was loaded with (info's `version`); optional for the spec's clients.
    const rawVersion = optionalField(ctx, 'version', 12)?.trim()
    if (rawVersion && !/^\d{1,10}$/.test(rawVersion)) fail(message(ctx, 'engine.bad_version'))
    const baseVersion = rawVersion ? Number(rawVersion) : undefined
    const params: Record<string, string> = {}
    const rawParams = ctx.request.input('params')
    if (typeof rawParams === 'string' && rawParams) {
      const parsed = jsonField(ctx, 'params', false)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [k, v] of Object.entries(parsed as Record<string, unknown>).slice(0, 50)) {
          if (!OWN_PARAMS.has(k) && /^[\w.-]{1,60}$/.test(k)) params[k] = String(v).slice(0, 500)
        }
      }
    }
    return { values: values as Record<string, unknown>, goToState, lang: languageOf(ctx), params, baseVersion }
  }

  private async versionFor(ctx: HttpContext): Promise<LoadedVersion> {
    const version = await latestVersionByKey(field(ctx, 'data', { max: 64 }))
    if (!version) fail(message(ctx, 'engine.not_found'), 404)
    return version
  }

  private async caseFor(ctx: HttpContext): Promise<CaseRow> {
    const id = readSignedId('case', ctx.request.input('key_process'))
    const row = id ? ((await db.from('cases').where('id', id).first()) as CaseRow | null) : null
    if (!row) fail(message(ctx, 'engine.not_found'), 404)
    return row
  }

  /** The case of `key_process` and its task of `token`, in one query (a save's first read). */
  private async caseAndTaskFor(ctx: HttpContext): Promise<{ row: CaseRow; task: TaskRow }> {
    const caseId = readSignedId('case', ctx.request.input('key_process'))
    const taskId = readSignedId('task', ctx.request.input('token'))
    const found =
      caseId && taskId
        ? ((await db
            .knexQuery()
            .from('tasks as t')
            .join('cases as c', 'c.id', 't.case_id')
            .where('t.id', taskId)
            .where('c.id', caseId)
            .select('c.*', ...TASK_COLUMNS.map((name) => `t.${name} as task_${name}`))
            .first()) as Record<string, unknown> | null)
        : null
    if (!found) fail(message(ctx, 'engine.not_found'), 404)
    const task: Record<string, unknown> = {}
    for (const name of TASK_COLUMNS) task[name] = found[`task_${name}`]
    return { row: found as unknown as CaseRow, task: task as unknown as TaskRow }
  }

  /** The task's assignee, unless four-eyes bars them; an external task's link is its own credential. */
  private async checkMayDo(ctx: HttpContext, row: CaseRow, task: TaskRow, principal: Principal | null) {
    if (task.assignee_type === 'external') return
    const barred = fourEyesBar(task, row.created_by, principal?.user.id ?? null)
    if (barred) fail(message(ctx, barred), 403)
    if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
    // Only an area task needs the caller's areas (a query); roles come with the principal.
    const memberships =
      task.assignee_type === 'area'
        ? await membershipsOf(principal)
        : { roles: principal.user.roles.map((r) => r.id), areas: [] }
    if (!mayDo(task, principal, memberships)) fail(message(ctx, 'engine.not_yours'), 403)
  }

  /** The answer of info/user/token (spec 000 §3 "Server info for a form"). */
  private async answer(
    ctx: HttpContext,
    version: LoadedVersion,
    row: CaseRow | null,
    task: TaskRow | null,
    principal: Principal | null,
    status: 'pending' | 'done'
  ) {
    const values = row ? (JSON.parse(row.values) as Record<string, unknown>) : {}
    const lang = languageOf(ctx)
    const fieldsValues: Record<string, unknown> = {}
    for (const item of version.form.fields) {
      if (item.field_name in values)
        fieldsValues[item.field_name] = toStoredValue(item, values[item.field_name], { lang })
    }
    const step = task ? version.process.steps.find((s) => s.id === task.step_id) : undefined
    const state = version.process.states.find((s) => s.id === (row?.state ?? 'init'))
    const user = principal?.user
    const vars = processVariables(row, version.formId, task?.id ?? null)
    return {
      infouser: user
        ? [
            {
              id: user.id,
              username: user.username,
              first_name: user.firstName,
              last_name: user.lastName,
              email: user.email,
              photo: user.photo,
              roles: principal!.roles,
            },
          ]
        : [],
      key_process: row ? caseKey(row.id) : '',
      // Sent back with a save: a save based on an older version is refused (engine.case_changed).
      version: row?.version ?? 0,
      // Whether the runtime offers "edit values" (see: editValuesRefusal; approve: always, spec 000 §5).
      may_edit_values:
        task !== null
          ? task.kind === 'approve' && status === 'pending'
          : row !== null && principal !== null && editValuesRefusal(principal, row) === null,
      token: task ? taskToken(task.id) : '',
      estados_label: (state?.label ?? 'init').toLowerCase(),
      state: row?.state ?? 'init',
      values_params: JSON.stringify(vars),
      status_task: status,
      step: step ? { id: step.id, label: step.label, kind: step.kind, go_to_states: step.go_to_states } : null,
      jsonconfig: version.config,
      fields_values: fieldsValues,
      values_init: values,
      // The first evaluation of these values and variables (conditions, formula results), or null:
      // the runtime draws page 1 from it before its own evaluation has run (initial_state.ts).
      initial: await initialStateFor(version.form, values, vars),
      // The case's newest generated document (create_doc), filled in by info() for an existing case.
      doc_path: '',
      doc_path_link: '',
      decisions:
        step?.kind === 'approve'
          ? step.decisions.map((d) => ({ id: d.id, label: d.label, color: d.color, comment: d.comment }))
          : [],
      form: { id: version.formId, name: version.formName, version: version.version },
    }
  }
}
