import db from '@adonisjs/lucid/services/db'
import type { Principal } from '#services/auth/principal'
import { maySeeCase } from '#services/process/access'
import type { CaseRow } from '#services/process/engine'
import { isUploader, type UploadRow } from './staging.js'

/**
 * May a signed-in person read a form's file (an upload or a generated document)? Staged: its uploader
 * only. Saved with a case: also whoever may see the case (process/access.ts). The file route adds task
 * links and the public consultation; plugins ask this (plugin-api caseFiles).
 */
export async function principalMayRead(row: UploadRow, principal: Principal): Promise<boolean> {
  if (row.status === 'deleted') return false
  if (isUploader(row, { userId: principal.user.id, taskId: null })) return true
  if (row.status !== 'promoted' || row.case_id === null) return false
  const caseRow = (await db.from('cases').where('id', row.case_id).first()) as CaseRow | null
  return caseRow !== null && (await maySeeCase(principal, caseRow))
}
