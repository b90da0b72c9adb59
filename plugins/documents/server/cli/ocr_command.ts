import type { PluginCommand, PluginContext } from '@tramita/plugin-api'
import type { OcrProgress } from '../../shared/ocr.js'
import { runOcr } from '../ocr/run.js'
import { ocrMode, queueOcr, runView, staleRuns } from '../ocr/service.js'

/** A run the queue has not touched for this long is taken by `--pending`. */
const STALE_MS = 10 * 60_000
const BAR = 24

/** One line redrawn in place on a terminal; a line per step elsewhere (logs, CI). */
function progressLine(print: (line: string) => void, label: string) {
  const tty = Boolean(process.stdout.isTTY)
  return (p: OcrProgress) => {
    const pages = p.pages ?? 0
    const filled = pages > 0 ? Math.round((p.pages_done / pages) * BAR) : 0
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${p.pages_done}/${pages || '?'} ${p.state}`
    if (tty) process.stdout.write(`\r${line}`)
    else print(line)
  }
}

/**
 * `tramita documents:ocr [ID…|--pending]`: OCRs files by id (their current version), or the runs the queue
 * lost, here in this process, with a progress bar. A page already done by an earlier run is not done again.
 */
export function ocrCommand(print: (line: string) => void): PluginCommand {
  return {
    name: 'ocr',
    description: 'OCR files by id (current version), or --pending: the runs the queue lost; prints progress',
    options: [
      { flags: '--pending', description: 'run the OCR runs queued or running but still for 10 minutes' },
      { flags: '--mode <mode>', description: 'skip (pages with text left alone; default), redo or force' },
    ],
    async run(args, options, ctx: PluginContext) {
      const pending = options.pending === true
      if (pending === args.length > 0) throw new Error('usage: tramita documents:ocr ID… | --pending [--mode M]')
      const mode = ocrMode(typeof options.mode === 'string' ? options.mode : undefined)
      const runIds: number[] = []
      if (pending) runIds.push(...(await staleRuns(ctx.db, STALE_MS)))
      for (const arg of args) {
        const id = Number(arg)
        if (!Number.isInteger(id) || id <= 0) throw new Error(`not a file id: ${arg}`)
        runIds.push((await queueOcr(ctx, id, mode, null, { enqueue: false })).runId)
      }
      if (runIds.length === 0) print('nothing to OCR')
      let failed = 0
      for (const runId of runIds) {
        const run = (await runView(ctx, runId))!
        const file = await ctx.db.table('files').select('name').where('id', run.file_id).first()
        const label = `${file?.name ?? `file ${run.file_id}`} (v${run.version})`
        const state = await runOcr(ctx, runId, {
          signal: new AbortController().signal,
          lastAttempt: true,
          onProgress: progressLine(print, label),
        })
        if (process.stdout.isTTY) process.stdout.write('\n')
        const done = (await runView(ctx, runId))!
        const counts = Object.entries(done.details)
          .filter(([, n]) => n > 0)
          .map(([what, n]) => `${what} ${n}`)
          .join(', ')
        print(`${label}: ${state}${counts ? ` (${counts})` : ''}`)
        if (state !== 'done') failed++
      }
      if (failed > 0) process.exitCode = 1
    },
  }
}
