import db from '@adonisjs/lucid/services/db'
import { isAdmin, type Principal } from '#services/auth/principal'
import { mayDo, membershipsOf } from './assignees.js'
import type { CaseRow, TaskRow } from './engine.js'

/**
 * Who may look at or correct a case, in one place: the form routes and the file routes ask the
 * same questions and must get the same answers. (Who may start or do a task: assignees.ts.)
 */

/** Who may look at a case: its starter, whoever had a task on it, and administrators. */
export async function maySeeCase(principal: Principal, row: Pick<CaseRow, 'id' | 'created_by'>): Promise<boolean> {
  if (row.created_by === principal.user.id) return true
  if (isAdmin(principal)) return true
  const mine = await membershipsOf(principal)
  const tasks = (await db.from('tasks').where('case_id', row.id)) as TaskRow[]
  return tasks.some((t) => mayDo({ ...t, claimed_by: null }, principal, mine) || t.claimed_by === principal.user.id)
}

/**
 * Who may edit a case's values outside a task (see's "edit values", case edit, their uploads), as a
 * refusal or null. Spec 000 §5 offers it to user id 1; administrators too; an ended case only to user 1.
 * The form routes answer it to the runtime as `may_edit_values`, so the button and the save agree.
 */
export function editValuesRefusal(
  principal: Principal,
  row: Pick<CaseRow, 'status'>
): { key: 'engine.not_yours'; status: 403 } | { key: 'tarea_realizada'; status: 409 } | null {
  if (principal.user.id !== 1 && !isAdmin(principal)) return { key: 'engine.not_yours', status: 403 }
  if (row.status !== 'open' && principal.user.id !== 1) return { key: 'tarea_realizada', status: 409 }
  return null
}
