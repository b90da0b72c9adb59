import type { PluginContext, PluginJob } from '@tramita/plugin-api'
import { issueConfirmations } from './due.js'

/**
 * The retention job: daily, mails the confirmations of what is due (due.ts). It gets only its payload,
 * so the plugin's context is bound when the plugin registers, as the library's jobs are.
 */
let bound: PluginContext | null = null

export const retentionJobs: PluginJob[] = [
  {
    name: 'retention',
    async handle() {
      if (!bound) throw new Error('documents: the retention job ran before the plugin registered')
      return issueConfirmations(bound)
    },
  },
]

export function scheduleRetentionJobs(ctx: PluginContext): void {
  bound = ctx
  ctx.jobs.every('daily', 'retention')
}
