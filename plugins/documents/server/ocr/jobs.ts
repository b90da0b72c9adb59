import type { PluginContext, PluginJob } from '@tramita/plugin-api'
import { runOcr } from './run.js'

/** Runs of the OCR job: a retry goes on where the last stopped (run.ts), so attempts cost no page twice. */
const ATTEMPTS = 3

let bound: PluginContext | null = null

/** Binds the plugin's context for the job (called in `register`, as the library's jobs do). */
export function bindOcrJobs(ctx: PluginContext): void {
  bound = ctx
}

export const ocrJobs: PluginJob[] = [
  {
    name: 'ocr',
    attempts: ATTEMPTS,
    backoffMs: 30_000,
    // One document at a time per worker process: its pages already use the cores (run.ts).
    concurrency: 1,
    async handle(payload: { runId?: unknown }, job) {
      if (!bound) throw new Error('documents: the OCR job ran before the plugin registered')
      const runId = Number(payload?.runId)
      if (!Number.isInteger(runId) || runId <= 0) return { state: 'gone' }
      return { state: await runOcr(bound, runId, { signal: job.signal, lastAttempt: job.attempt >= ATTEMPTS }) }
    },
  },
]
