import type { PluginJobs } from '@tramita/plugin-api'
import { qualifiedJobName } from '@tramita/plugin-api'
import type { Queue } from '#jobs/types'

export type Period = 'hourly' | 'daily'

/** A plugin job run once per period. */
export interface Schedule {
  pluginId: string
  job: string
  period: Period
}

/** The job id of the current period: every node enqueues it, the queue keeps one. */
export function periodJobId(job: string, period: Period, now = new Date()): string {
  return `${job}:${now.toISOString().slice(0, period === 'hourly' ? 13 : 10)}`
}

const PERIOD_MS: Record<Period, number> = { hourly: 3_600_000, daily: 86_400_000 }

/**
 * The enqueue options of a scheduled job: its period's id, unique for a whole period (not only while
 * the queue keeps the finished job, which a busy queue drops within minutes), so the nodes enqueuing
 * it every few minutes run it once.
 */
export function periodEnqueueOptions(job: string, period: Period, now = new Date()) {
  return { jobId: periodJobId(job, period, now), uniqueForMs: PERIOD_MS[period] }
}

/** The queue (any registered job) and this plugin's schedules, kept by `schedules` for the provider. */
export function pluginJobs(
  pluginId: string,
  queue: () => Pick<Queue, 'enqueue'>,
  schedules: Schedule[],
  declaring: () => boolean
): PluginJobs {
  return {
    enqueue: (name, payload, opts) => queue().enqueue(name, payload, opts),
    every(period, jobName) {
      if (!declaring()) throw new Error(`plugin "${pluginId}": jobs.every is declared in register`)
      if (period !== 'hourly' && period !== 'daily') throw new Error(`plugin "${pluginId}": unknown period "${period}"`)
      const job = qualifiedJobName(pluginId, jobName)
      if (!schedules.some((s) => s.job === job && s.period === period)) schedules.push({ pluginId, job, period })
    },
  }
}

/**
 * Enqueues each schedule of a live plugin under its period's job id: every node does it every few
 * minutes, the queue keeps one job per id, so each runs once per period across the nodes.
 */
export function enqueueSchedules(
  queue: Pick<Queue, 'enqueue'>,
  schedules: readonly Schedule[],
  live: (pluginId: string) => boolean,
  warn: (message: string) => void,
  now = new Date()
): Promise<unknown> {
  return Promise.all(
    schedules
      .filter((s) => live(s.pluginId))
      .map((s) =>
        queue
          .enqueue(s.job, {}, periodEnqueueOptions(s.job, s.period, now))
          .catch((error: Error) => warn(`${s.job} not queued: ${error.message}`))
      )
  )
}
