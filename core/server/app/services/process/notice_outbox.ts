import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { stageJobs } from '#services/job_outbox'

export const TASK_NOTICE_JOB = 'core:process-task-notice'

/** Stages the assignee mail of new tasks in the save's transaction: it is queued only if the save commits. */
export function stageTaskNotices(trx: QueryClientContract, taskIds: number[], lang: string | undefined) {
  return stageJobs(
    trx,
    taskIds.map((taskId) => ({
      name: TASK_NOTICE_JOB,
      payload: { taskId, lang: lang ?? 'es' },
      key: `task-notice:${taskId}`,
    }))
  )
}
