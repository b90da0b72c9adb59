import type { PluginContext, PluginJob } from '@tramita/plugin-api'
import { purgeObjects, purgeOldTrash } from './trash.js'

/**
 * The library's jobs. A job gets only its payload, so the plugin's context is bound here when the
 * plugin registers (every process that runs jobs registers the plugin first).
 */
let bound: PluginContext | null = null

function context(): PluginContext {
  if (!bound) throw new Error('documents: library jobs ran before the plugin registered')
  return bound
}

export const libraryJobs: PluginJob[] = [
  {
    name: 'purge',
    /** Deletes stored objects of deleted files; a key still named by a row is kept. */
    async handle(payload: { keys?: unknown }) {
      const keys = Array.isArray(payload?.keys) ? payload.keys.filter((k): k is string => typeof k === 'string') : []
      return { deleted: await purgeObjects(context(), keys) }
    },
  },
  {
    name: 'purge_trash',
    async handle() {
      return purgeOldTrash(context())
    },
  },
]

export function scheduleLibraryJobs(ctx: PluginContext): void {
  bound = ctx
  ctx.jobs.every('daily', 'purge_trash')
}
