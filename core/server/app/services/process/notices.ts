import db from '@adonisjs/lucid/services/db'
import mail from '@adonisjs/mail/services/main'
import logger from '@adonisjs/core/services/logger'
import { isLanguage, translate, type Language } from '@tramita/i18n'
import { appUrl } from '#lib/app_url'
import { effectDone, performClaimed, recordPerformed } from '#services/job_effects'
import { fourEyesBar } from './assignees.js'
import { caseKey, taskToken } from './engine.js'
import { TASK_NOTICE_JOB } from './notice_outbox.js'

/** At most this many members of a role or area get the mail of one task. */
const MAX_RECIPIENTS = 50

/** The path that opens a task: /forms/enter or /forms/approve with the form, the case and the task. */
export function taskPath(formKey: string, caseId: number, taskId: number, kind: string): string {
  const query = new URLSearchParams({ data: formKey, key_process: caseKey(caseId), token: taskToken(taskId) })
  return `/forms/${kind === 'approve' ? 'approve' : 'enter'}?${query}`
}

/** The same as an absolute link, for mail. */
export function taskLink(formKey: string, caseId: number, taskId: number, kind: string): string {
  return `${appUrl()}${taskPath(formKey, caseId, taskId, kind)}`
}

/**
 * The addresses of a task's assignees, leaving out the members the four-eyes rule bars from doing it
 * (the case's starter, the previous step's doer): they would be mailed a task they cannot open.
 */
async function recipients(task: {
  assignee_type: string
  assignee_id: number | null
  assignee_email: string | null
  four_eyes: boolean | number
  assigned_by: number | null
  case_starter: number | null
}): Promise<string[]> {
  // Two more than the cap: the barred (at most two) do not take the others' places.
  const live = async (q: ReturnType<typeof db.from>) => {
    const rows = (await q
      .where('u.enabled', true)
      .where('u.blocked', false)
      .whereNotNull('u.email')
      .orderBy('u.id')
      .limit(MAX_RECIPIENTS + 2)
      .select('u.id', 'u.email')) as { id: number; email: string }[]
    const allowed = rows.filter((r) => fourEyesBar(task, task.case_starter, r.id) === null)
    return allowed.slice(0, MAX_RECIPIENTS).map((r) => r.email)
  }
  switch (task.assignee_type) {
    case 'external':
      return task.assignee_email ? [task.assignee_email] : []
    case 'user':
      return live(db.from('users as u').where('u.id', task.assignee_id!))
    case 'rol':
      return live(
        db.from('users as u').join('user_roles as l', 'l.user_id', 'u.id').where('l.role_id', task.assignee_id!)
      )
    case 'area':
      return live(
        db.from('users as u').join('user_areas as l', 'l.user_id', 'u.id').where('l.area_id', task.assignee_id!)
      )
    default:
      return []
  }
}

/**
 * The mail to a task's assignees (spec 000 §3 activity type `email`), staged in the save's transaction
 * and queued once it commits. A task already done or cancelled by the time the job runs is not
 * announced. The sent mail is recorded (`task-notice:<task>` in job_effects, with the activity entry):
 * a run after the record mails nobody; a worker that dies between sending and recording mails again.
 */
export const taskNoticeJob = {
  name: TASK_NOTICE_JOB,
  attempts: 3,
  backoffMs: 30_000,
  async handle(payload: { taskId: number; lang: string }) {
    const lang: Language = isLanguage(payload.lang) ? payload.lang : 'es'
    const task = await db
      .from('tasks as t')
      .join('cases as c', 'c.id', 't.case_id')
      .join('forms as f', 'f.id', 'c.form_id')
      .where('t.id', payload.taskId)
      .select('t.*', 'c.code', 'c.created_by as case_starter', 'f.key as form_key', 'f.name as form_name')
      .first()
    if (!task || task.status !== 'pending') return { sent: 0 }
    const effect = `task-notice:${task.id}`
    if (await effectDone(effect)) return { sent: 0 }
    const to = await recipients(task)
    if (to.length === 0) return { sent: 0 }
    const link = taskLink(task.form_key, task.case_id, task.id, task.kind)
    const subject = translate(lang, 'mail.task.subject', { form: task.form_name, code: task.code })
    const body = translate(lang, task.kind === 'approve' ? 'mail.task.approve' : 'mail.task.enter', {
      form: task.form_name,
      code: task.code,
    })
    const sent = await performClaimed(effect, async () => {
      await mail.send((message) => {
        message
          .to(to[0])
          .bcc(to.slice(1))
          .subject(subject)
          .text(`${body}\n\n${link}`)
          .html(`<p>${escape(body)}</p><p><a href="${escape(link)}">${escape(link)}</a></p>`)
      })
    })
    if (!sent) return { sent: 0 }
    // The mail is gone: a failure from here on must not fail the job (a retry would mail again). A task
    // (or its case) deleted meanwhile gets no log entry, hence the insert from the task's row.
    try {
      await recordPerformed(effect, async (trx) => {
        await trx.rawQuery(
          `insert into activities (case_id, task_id, type, event, label, color, assignees, type_asignador, user_id, created_at)
           select case_id, id, 'email', 'email_sent', '', '', ?, ?, null, ? from tasks where id = ?`,
          [task.assignee_text, task.assignee_type, new Date(), task.id]
        )
      })
    } catch (error) {
      logger.warn({ err: error, task: task.id }, 'the mail was sent but its record was not written')
    }
    return { sent: to.length }
  },
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
