import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import {
  DECISION_COMMENT_MAX,
  declaredState,
  END_STATE,
  fourEyes,
  INIT_STATE,
  parseSetEntryKey,
  START_TASK,
  validateSubmission,
  type CaseMode,
  type ProcessNext,
  type ProcessStep,
} from '@tramita/contract'
import type { Json } from '@tramita/sandbox'
import { affectedRows } from '#lib/db_result'
import { signId } from '#lib/signed_id'
import { scriptRunner } from '#services/scripts'
import { fieldTypeRegistry } from '#plugins/field_types'
import { newCaseCode } from './case_code.js'
import { fourEyesBar, resolveAssignee, userNamedBy } from './assignees.js'
import { verifiedPeople } from './people_values.js'
import { promoteAttachments } from './attachments.js'
import { stageTaskNotices } from './notice_outbox.js'
import type { Uploader } from '#services/uploads/staging'
import type { LoadedVersion } from './definitions.js'

/**
 * The process engine (spec 000 §3–§4): a case starts on a published form version and moves from step
 * to step. Each save validates the submission on the server (validateSubmission, in the sandbox) and
 * writes the values, the state change, the next task and the activity entries in one transaction.
 * Mail to assignees is staged in the same transaction (the job outbox) and queued by the relay once
 * it commits, so a rolled-back save sends nothing and a committed one never waits on Redis.
 * Statements go through knex's builder (trx.knexQuery()) rather than Lucid's: every step pays the
 * per-query CPU of the layer, and the server's CPU is what bounds steps per second.
 */

/** Failures name a message key; the controller translates it (the engine has no request). */
export class EngineRefusal extends Error {
  constructor(
    readonly key: string,
    readonly status = 400,
    readonly extra?: Record<string, unknown>
  ) {
    super(key)
  }
}

const refuse = (key: string, status = 400, extra?: Record<string, unknown>): never => {
  throw new EngineRefusal(key, status, extra)
}

export interface CaseRow {
  id: number
  form_id: number
  form_version_id: number
  code: string
  state: string
  status: string
  values: string
  params: string | null
  created_by: number | null
  /** Counts the writes of the case's values; a save based on an older one is refused. */
  version: number
}

export interface TaskRow {
  id: number
  case_id: number
  step_id: string
  kind: string
  assignee_type: string
  assignee_id: number | null
  assignee_email: string | null
  assignee_text: string
  status: string
  claimed_by: number | null
  /** The step refuses the case's starter and `assigned_by` (the previous step's doer). */
  four_eyes: boolean | number
  assigned_by: number | null
}

/** What a save changes, gathered while walking the process and written at the end. */
interface Cursor {
  caseId: number
  /** Who started the case (four-eyes steps may not be assigned to them). */
  starter: number | null
  state: string
  ended: boolean
  activities: Record<string, unknown>[]
  /** New tasks whose assignees get a mail once the transaction commits. */
  notify: number[]
}

export const caseKey = (caseId: number) => signId('case', caseId)
export const taskToken = (taskId: number) => signId('task', taskId)

/** The process variables scripts see (spec 000 §3), plus the form URL's own. */
export function processVariables(
  row: Pick<CaseRow, 'id' | 'form_id' | 'code' | 'params'> | null,
  formId: number,
  taskId: number | null,
  urlParams: Record<string, string> = {}
): Record<string, Json> {
  const stored = row?.params ? (JSON.parse(row.params) as Record<string, string>) : {}
  return {
    ...stored,
    ...urlParams,
    code_process: row?.code ?? '',
    gnrl_id: row?.id ?? 0,
    id_process: formId,
    this_id: taskId ?? 0,
  }
}

export interface Submission {
  values: Record<string, unknown>
  goToState?: string
  lang?: string
  /** Form URL parameters kept as process variables (new cases store them). */
  params?: Record<string, string>
  /**
   * The case's version the sender loaded (info's `version`). Absent (a client that does not send it),
   * the version read before validation is the base. Either way a save whose base is no longer the
   * case's version is refused with engine.case_changed, never written over the newer values.
   */
  baseVersion?: number
}

/**
 * The values to store: the stored ones, overwritten by what was sent for fields this step may edit
 * (shown on the task and enabled), validated and recomputed by the contract.
 */
async function validatedValues(
  version: LoadedVersion,
  stored: Record<string, unknown>,
  submission: Submission,
  mode: CaseMode,
  task: string | undefined,
  vars: Record<string, Json>
): Promise<Record<string, unknown>> {
  const state = declaredState(version.form, { task })
  const sent: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(submission.values)) {
    // A set field's repetition (name[id]) follows its field's state.
    const fieldState = state[parseSetEntryKey(name)?.name ?? name]
    // Unknown names go through, so validateSubmission refuses them with their name.
    if (!fieldState || (fieldState.show && fieldState.natural === 'enabled')) sent[name] = value
  }
  const result = await validateSubmission(
    version.config,
    { ...stored, ...sent },
    { case: mode, task, runner: scriptRunner(), vars, lang: submission.lang, registry: await fieldTypeRegistry() }
  )
  // Without the sandbox, conditions and formulas did not run: hidden fields and totals would be wrong.
  if (result.unavailable) refuse('engine.scripts_unavailable', 503)
  if (!result.ok) {
    refuse(result.errors.length > 0 ? 'engine.invalid_values' : 'missing_required_fields', 400, {
      errors: result.errors,
      missing: result.missing.map((m) => m.field),
      // The designer's required messages, in the sender's language, for the fields that have one.
      missing_messages: result.missing.flatMap((m) => (m.message ? [{ field: m.field, message: m.message }] : [])),
      detail: result.errors
        .slice(0, 3)
        .map((e) => e.message)
        .join('; '),
    })
  }
  const people = await verifiedPeople(version.form, stored, result.values)
  if (people.problems.length > 0) {
    const [first] = people.problems
    refuse(first!.key, 400, { ...first!.vars, errors: people.problems.map((p) => ({ field: p.field, key: p.key })) })
  }
  return people.values
}

function stateOf(version: LoadedVersion, id: string) {
  return version.process.states.find((s) => s.id === id)
}

function changeState(version: LoadedVersion, cursor: Cursor, id: string, userId: number | null) {
  if (cursor.state === id) return
  cursor.state = id
  const state = stateOf(version, id)
  cursor.activities.push({
    type: 'state',
    event: 'state_changed',
    // The id, so the consultation draws the path the case took (spec 000 §2, issue 18).
    state: id,
    label: state?.label ?? id,
    color: state?.color ?? '',
    user_id: userId,
  })
}

/** Follows `next`: enters its state, then assigns its step or ends the case. */
async function advance(
  trx: TransactionClientContract,
  version: LoadedVersion,
  cursor: Cursor,
  next: ProcessNext,
  values: Record<string, unknown>,
  userId: number | null
) {
  if (next.step === null) {
    changeState(version, cursor, next.state ?? END_STATE, userId)
    cursor.ended = true
    cursor.activities.push({ type: 'end', event: 'finished', label: version.process.label, user_id: userId })
    return
  }
  if (next.state) changeState(version, cursor, next.state, userId)
  const step = version.process.steps.find((s) => s.id === next.step)!
  if (step.state) changeState(version, cursor, step.state, userId)
  await assign(trx, cursor, step, values, userId)
}

async function assign(
  trx: TransactionClientContract,
  cursor: Cursor,
  step: ProcessStep,
  values: Record<string, unknown>,
  userId: number | null
) {
  const assignee = await resolveAssignee(trx, step, values)
  if (!assignee) refuse('engine.no_assignee', 400, { step: step.id })
  const checked = fourEyes(step)
  // A four-eyes step given to the starter or to this step's doer could never be done: say so now.
  if (checked && assignee!.type === 'user' && (assignee!.id === cursor.starter || assignee!.id === userId)) {
    refuse('engine.four_eyes_assignee', 400, { step: step.label, who: assignee!.text })
  }
  const [taskId] = await trx
    .knexQuery()
    .table('tasks')
    .insert({
      case_id: cursor.caseId,
      step_id: step.id,
      kind: step.kind,
      assignee_type: assignee!.type,
      assignee_id: assignee!.id,
      assignee_email: assignee!.email,
      assignee_text: assignee!.text.slice(0, 300),
      status: 'pending',
      four_eyes: checked,
      assigned_by: userId,
      created_at: new Date(),
    })
  const base = step.kind === 'approve' ? 'approve' : 'assign'
  cursor.activities.push({
    task_id: taskId,
    type: assignee!.fromField ? `${base}_parameter` : base,
    event: step.kind === 'approve' ? 'approval_requested' : 'assigned',
    label: step.label,
    assignees: assignee!.text.slice(0, 300),
    type_asignador: assignee!.type,
    user_id: userId,
  })
  if (step.notify) cursor.notify.push(Number(taskId))
}

/** Writes the case row, the activity entries gathered on the way and the assignee mail's outbox rows. */
async function finish(
  trx: TransactionClientContract,
  cursor: Cursor,
  values: Record<string, unknown>,
  lang: string | undefined
) {
  const now = new Date()
  await stageTaskNotices(trx, cursor.notify, lang)
  await trx
    .knexQuery()
    .from('cases')
    .where('id', cursor.caseId)
    .update({
      state: cursor.state,
      status: cursor.ended ? 'ended' : 'open',
      values: JSON.stringify(values),
      updated_at: now,
      ...(cursor.ended ? { ended_at: now } : {}),
    })
  if (cursor.ended) {
    await trx
      .knexQuery()
      .from('tasks')
      .where('case_id', cursor.caseId)
      .where('status', 'pending')
      .update({ status: 'cancelled' })
  }
  if (cursor.activities.length > 0) {
    await trx
      .knexQuery()
      .table('activities')
      .insert(
        cursor.activities.map((a) => ({ case_id: cursor.caseId, created_at: now, color: '', assignees: '', ...a }))
      )
  }
}

/**
 * A save's first write of an existing case's row: moves its version on from the one the save was based
 * on, or refuses when another save moved it first. Taking the row's write lock before the save's
 * inserts also keeps MariaDB from a deadlock between them (their foreign keys lock the case row shared)
 * and another save's update of the row.
 */
async function lockCase(trx: TransactionClientContract, caseId: number, base: number): Promise<boolean> {
  const moved = await trx
    .knexQuery()
    .from('cases')
    .where('id', caseId)
    .where('version', base)
    .update({ version: base + 1 })
  return affectedRows(moved) > 0
}

/** The loser of a race on a case's values (the form runtime offers a reload on `reason`). */
const caseChanged = () => refuse('engine.case_changed', 409, { reason: 'case_changed' })

/** The version a save on `row` is based on; a sender who loaded an older one is refused at once. */
function baseVersionOf(row: CaseRow, submission: Submission): number {
  const base = submission.baseVersion ?? row.version
  if (base !== row.version) caseChanged()
  return base
}

/** Makes the caller's uploads the values reference the case's; refuses a file that is not theirs. */
async function attach(
  trx: TransactionClientContract,
  version: LoadedVersion,
  caseId: number,
  values: Record<string, unknown>,
  stored: Record<string, unknown>,
  uploader: Uploader
) {
  const input = { form: version.form, formId: version.formId, caseId, values, stored, uploader }
  const refused = await promoteAttachments(trx, input)
  if (refused) refuse('upload.not_attachable', 400, { path: refused })
}

function checkGoToState(version: LoadedVersion, allowed: string[], wanted: string | undefined): string | undefined {
  if (!wanted) return undefined
  if (!allowed.includes(wanted) || !stateOf(version, wanted)) refuse('engine.state_not_allowed', 400)
  return wanted
}

export interface SaveResult {
  caseId: number
  code: string
  key: string
  state: string
  ended: boolean
  notify: number[]
}

/**
 * A starter who names themselves in the field that picks a later four-eyes step's assignee (the
 * demo's "immediate superior") is told at once, not when that step comes to be assigned.
 */
function refuseSelfApproval(version: LoadedVersion, values: Record<string, unknown>, starter: number | null) {
  if (starter === null) return
  for (const step of version.process.steps) {
    const field = step.assign.type === 'field' ? step.assign.field : undefined
    if (!field || !fourEyes(step) || userNamedBy(values, field) !== starter) continue
    const item = version.form.fields.find((f) => f.field_name === field)
    refuse('engine.four_eyes_self', 400, { step: step.label, field: item?.data.label.value || field })
  }
}

/** Case new: the starter's values open a case in `init`, then the process's start is followed. */
export async function startCase(
  version: LoadedVersion,
  userId: number | null,
  submission: Submission
): Promise<SaveResult> {
  if (submission.goToState) refuse('engine.state_not_allowed')
  const params = submission.params ?? {}
  const vars = processVariables(null, version.formId, null, params)
  const values = await validatedValues(version, {}, submission, 'new', START_TASK, vars)
  refuseSelfApproval(version, values, userId)
  const code = newCaseCode()
  return db.transaction(async (trx) => {
    const now = new Date()
    const [caseId] = await trx
      .knexQuery()
      .table('cases')
      .insert({
        form_id: version.formId,
        form_version_id: version.id,
        code,
        state: INIT_STATE,
        status: 'open',
        values: JSON.stringify(values),
        params: Object.keys(params).length > 0 ? JSON.stringify(params) : null,
        created_by: userId,
        created_at: now,
        updated_at: now,
      })
    const cursor: Cursor = {
      caseId: Number(caseId),
      starter: userId,
      state: INIT_STATE,
      ended: false,
      activities: [],
      notify: [],
    }
    cursor.activities.push({ type: 'start', event: 'started', label: version.process.label, user_id: userId })
    await attach(trx, version, cursor.caseId, values, {}, { userId, taskId: null })
    await advance(trx, version, cursor, version.process.start, values, userId)
    await finish(trx, cursor, values, submission.lang)
    return result(cursor, code)
  })
}

function result(cursor: Cursor, code: string): SaveResult {
  return {
    caseId: cursor.caseId,
    code,
    key: caseKey(cursor.caseId),
    state: cursor.state,
    ended: cursor.ended,
    notify: cursor.notify,
  }
}

/**
 * The comment sent with a decision, checked against the decision's rule: required ones must have
 * text, none refuses any, and each is held to DECISION_COMMENT_MAX characters. Null when empty.
 */
function decisionComment(
  rule: 'none' | 'optional' | 'required',
  label: string,
  sent: string | undefined
): string | null {
  const comment = (sent ?? '').trim()
  if (comment === '') {
    if (rule === 'required') refuse('engine.comment_required', 400, { decision: label })
    return null
  }
  if (rule === 'none') refuse('engine.comment_not_allowed', 400, { decision: label })
  // Characters as the reader counts them (code points), as the column's limit does on MariaDB.
  if (Array.from(comment).length > DECISION_COMMENT_MAX) {
    refuse('engine.comment_too_long', 400, { max: DECISION_COMMENT_MAX })
  }
  return comment
}

/**
 * Case enter or approve: the task's values (and, for approve, its decision) complete the step and the
 * case moves on. The task is claimed with a conditional update, so of two saves at once one wins and
 * the other is told the task is done.
 */
export async function completeTask(
  version: LoadedVersion,
  row: CaseRow,
  task: TaskRow,
  userId: number | null,
  submission: Submission & { decision?: string; comment?: string }
): Promise<SaveResult> {
  if (task.status !== 'pending' || row.status !== 'open') refuse('tarea_realizada', 409)
  const barred = fourEyesBar(task, row.created_by, userId)
  if (barred) refuse(barred, 403)
  const base = baseVersionOf(row, submission)
  const step = version.process.steps.find((s) => s.id === task.step_id)
  if (!step) refuse('engine.not_found', 404)
  const mode: CaseMode = step!.kind === 'approve' ? 'approve' : 'enter'
  let next = step!.next
  let decisionEntry: Record<string, unknown> | undefined
  if (mode === 'approve') {
    const decision = step!.decisions.find((d) => d.id === submission.decision || d.label === submission.decision)
    if (!decision) refuse('engine.decision_unknown')
    next = decision!.next
    const comment = decisionComment(decision!.comment, decision!.label, submission.comment)
    decisionEntry = {
      type: 'approve',
      event: 'option_selected',
      label: decision!.label,
      color: decision!.color,
      comment,
    }
  } else {
    if (submission.decision) refuse('engine.decision_unknown')
    // Only a decision carries a comment; a fill step's would be dropped without a word.
    if (submission.comment?.trim()) refuse('engine.comment_not_allowed', 400, { decision: step!.label })
  }
  const goTo = checkGoToState(version, step!.go_to_states, submission.goToState)
  const stored = JSON.parse(row.values) as Record<string, unknown>
  const vars = processVariables(row, version.formId, task.id)
  const values = await validatedValues(version, stored, submission, mode, step!.id, vars)
  return db.transaction(async (trx) => {
    // Rows are locked task first, then case: the order the assignee-mail job takes them in (it reads the
    // task; the foreign keys of what it writes lock the case), and updating a task's status locks its
    // case shared (the index on case_id and status), so the case's write lock must come before that.
    const locked = await trx.knexQuery().from('tasks').where('id', task.id).forUpdate().first('status')
    if (locked?.status !== 'pending') refuse('tarea_realizada', 409)
    if (!(await lockCase(trx, row.id, base))) caseChanged()
    const claimed = await trx
      .knexQuery()
      .from('tasks')
      .where('id', task.id)
      .where('status', 'pending')
      // A role or area task claimed by another member since it was read is theirs to do.
      .where((q) =>
        userId === null ? q.whereNull('claimed_by') : q.whereNull('claimed_by').orWhere('claimed_by', userId)
      )
      .update({
        status: 'done',
        done_by: userId,
        claimed_by: userId,
        done_at: new Date(),
        decision: submission.decision ?? null,
      })
    if (affectedRows(claimed) === 0) {
      const now = await trx.knexQuery().from('tasks').where('id', task.id).select('status').first()
      refuse(now?.status === 'pending' ? 'inbox.claimed_by_other' : 'tarea_realizada', 409)
    }
    await attach(trx, version, row.id, values, stored, { userId, taskId: task.id })
    const cursor: Cursor = {
      caseId: row.id,
      starter: row.created_by,
      state: row.state,
      ended: false,
      activities: [],
      notify: [],
    }
    cursor.activities.push(
      decisionEntry
        ? {
            ...decisionEntry,
            task_id: task.id,
            assignees: task.assignee_text,
            type_asignador: task.assignee_type,
            user_id: userId,
          }
        : {
            task_id: task.id,
            type: 'assign',
            event: 'performed',
            label: step!.label,
            assignees: task.assignee_text,
            type_asignador: task.assignee_type,
            user_id: userId,
          }
    )
    if (goTo) changeState(version, cursor, goTo, userId)
    await advance(trx, version, cursor, next, values, userId)
    await finish(trx, cursor, values, submission.lang)
    return result(cursor, row.code)
  })
}

/** Case edit (and edit values in see): new values for an open case; the process does not move. */
export async function editCase(
  version: LoadedVersion,
  row: CaseRow,
  userId: number | null,
  submission: Submission
): Promise<SaveResult> {
  const base = baseVersionOf(row, submission)
  const stored = JSON.parse(row.values) as Record<string, unknown>
  const vars = processVariables(row, version.formId, null)
  const values = await validatedValues(version, stored, submission, 'edit', undefined, vars)
  // The values and the promotion of their new files commit together or not at all, and only onto the
  // values they were validated against.
  await db.transaction(async (trx) => {
    if (!(await lockCase(trx, row.id, base))) caseChanged()
    await attach(trx, version, row.id, values, stored, { userId, taskId: null })
    await trx
      .knexQuery()
      .from('cases')
      .where('id', row.id)
      .update({ values: JSON.stringify(values), updated_at: new Date() })
  })
  return {
    caseId: row.id,
    code: row.code,
    key: caseKey(row.id),
    state: row.state,
    ended: row.status === 'ended',
    notify: [],
  }
}
