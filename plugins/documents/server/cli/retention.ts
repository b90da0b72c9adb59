import type { PluginCommand } from '@tramita/plugin-api'
import type { DueRow } from '../../shared/retention.js'
import { dueRows, issueConfirmations } from '../retention/due.js'

/** One due document as the operator reads it. */
export function dueLine(row: DueRow): string {
  const from = row.from_type === 'file' ? 'its own' : `${row.from_type} ${row.from_id}`
  const responsible = `${row.responsible.name || '?'} (user ${row.responsible.id})`
  const pending = row.pending_until ? `; mailed, open until ${row.pending_until.slice(0, 10)}` : ''
  return `#${row.file_id} ${row.file_name} — schedule ${row.schedule_code} (${from}) — ${responsible} — due since ${row.due_since.slice(0, 10)}${pending}`
}

/**
 * `tramita documents:retention [--dry-run]`: lists the documents whose retention has ended (document,
 * schedule, responsible person, since when) and, without --dry-run, mails their confirmations as the
 * daily job does (the same code: a document whose code is open is not mailed again).
 */
export function retentionCommand(print: (line: string) => void): PluginCommand {
  return {
    name: 'retention',
    description:
      'list the documents whose retention has ended and mail the responsible people their confirmation links (--dry-run: list only)',
    options: [{ flags: '--dry-run', description: 'list what is due; mail nothing' }],
    async run(args, options, ctx) {
      if (args.length > 0) throw new Error('usage: tramita documents:retention [--dry-run]')
      const now = new Date()
      const rows = await dueRows(ctx, now)
      for (const row of rows) print(dueLine(row))
      if (options.dryRun === true) {
        print(`${rows.length} document(s) due; dry run: nothing mailed`)
        return
      }
      const summary = await issueConfirmations(ctx, now)
      print(`${summary.due} document(s) due; ${summary.mailed} confirmation(s) mailed`)
    },
  }
}
