import type { PluginContext, PluginJob } from '@tramita/plugin-api'
import { libraryJobs, scheduleLibraryJobs } from './library/jobs.js'
import { retentionJobs, scheduleRetentionJobs } from './retention/jobs.js'
import { bindOcrJobs, ocrJobs } from './ocr/jobs.js'
import { bindSyncJobs, syncJobs } from './sync/jobs.js'

/** The plugin's background jobs (each idempotent: a job may run twice). Areas add theirs here. */
export const documentsJobs: PluginJob[] = [...libraryJobs, ...ocrJobs, ...retentionJobs, ...syncJobs]

/** Declares the plugin's schedules (in `register`). */
export function scheduleJobs(ctx: PluginContext): void {
  scheduleLibraryJobs(ctx)
  scheduleRetentionJobs(ctx)
  bindOcrJobs(ctx)
  bindSyncJobs(ctx)
}
