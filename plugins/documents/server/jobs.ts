import type { PluginContext, PluginJob } from '@tramita/plugin-api'

/** The plugin's background jobs (each idempotent: a job may run twice). Areas add theirs here. */
export const documentsJobs: PluginJob[] = []

/** Declares the plugin's schedules (in `register`). */
export function scheduleJobs(_ctx: PluginContext): void {}
