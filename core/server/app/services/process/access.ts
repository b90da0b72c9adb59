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

/** Spec 000 §5: editing the values of a case (see, edit) is for user id 1; administrators too. */
export function mayEditValues(principal: Principal): boolean {
  return principal.user.id === 1 || isAdmin(principal)
}
