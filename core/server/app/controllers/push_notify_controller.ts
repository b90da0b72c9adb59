import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { done } from '#lib/envelope'
import { field } from '#lib/input'
import { message } from '#lib/messages'
import { limitPerMinute } from '#services/auth/throttle'
import { platform } from '#services/platform'
import type { CaseRow } from '#services/process/engine'
import UploadsController from '#controllers/uploads_controller'

/** Calls per minute per user (PUSH_NOTIFY_PER_MINUTE overrides it). */
export const PUSH_NOTIFY_PER_MINUTE = Number(process.env.PUSH_NOTIFY_PER_MINUTE) || 30
/** At most this many people are told of one notification. */
const MAX_RECIPIENTS = 200

/**
 * The signed-in people of a case, but `except`: its starter and whoever may do one of its pending
 * tasks (the user named, the members of the role or area named, or only the member who claimed it).
 * Disabled and blocked users are left out.
 */
export async function casePeople(row: CaseRow, except: number): Promise<number[]> {
  const ids = new Set<number>()
  if (row.created_by !== null) ids.add(row.created_by)
  const tasks = (await db
    .from('tasks')
    .where('case_id', row.id)
    .where('status', 'pending')
    .select('assignee_type', 'assignee_id', 'claimed_by')) as {
    assignee_type: string
    assignee_id: number | null
    claimed_by: number | null
  }[]
  for (const task of tasks) {
    if (task.claimed_by !== null) ids.add(task.claimed_by)
    else if (task.assignee_type === 'user' && task.assignee_id !== null) ids.add(task.assignee_id)
    else if ((task.assignee_type === 'rol' || task.assignee_type === 'area') && task.assignee_id !== null) {
      const [table, column] = task.assignee_type === 'rol' ? ['user_roles', 'role_id'] : ['user_areas', 'area_id']
      const members = await db.from(table).where(column, task.assignee_id).limit(MAX_RECIPIENTS).select('user_id')
      for (const m of members as { user_id: number }[]) ids.add(m.user_id)
    }
  }
  ids.delete(except)
  if (ids.size === 0) return []
  const live = await db
    .from('users')
    .whereIn('id', [...ids])
    .where('enabled', true)
    .where('blocked', false)
    .limit(MAX_RECIPIENTS)
    .select('id')
  return (live as { id: number }[]).map((u) => Number(u.id))
}

/**
 * POST /inside/forms/create/search_endpoint/push_notify (spec 000 §4 push_notify, §7 sockets): the
 * action's "and socket" half. data (form key), key_process (the case), token (the task), title,
 * message. The caller must be signed in and may act on the case as the uploads route checks it
 * (UploadsController.formContext); the case's other people get `{case: 'push_notify', data: {title,
 * message, code_process}}` on /ws. A new form (no case yet) has nobody else to tell: `sent` is 0.
 * Rate-limited per user; bad input answers `status: 'fail'` with a message and a 4xx.
 */
export default class PushNotifyController extends UploadsController {
  async push(ctx: HttpContext) {
    const principal = ctx.principal!
    await limitPerMinute(
      `push_notify:${principal.user.id}`,
      PUSH_NOTIFY_PER_MINUTE,
      message(ctx, 'auth.too_many_requests')
    )
    const title = field(ctx, 'title', { max: 200 })
    const text = field(ctx, 'message', { max: 2000, required: false })
    const { row } = await this.formContext(ctx)
    if (!row) return done({ sent: 0 })
    const people = await casePeople(row, principal.user.id)
    const data = { title, message: text, code_process: row.code }
    await Promise.all(people.map((userId) => platform().sockets.publish({ userId }, { case: 'push_notify', data })))
    return done({ sent: people.length })
  }
}
