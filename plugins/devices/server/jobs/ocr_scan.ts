import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OCR_CAPABILITY, type OcrCapability, type PluginJob } from '@tramita/plugin-api'
import { deliverScan, languageOf, OCR_SCAN_JOB, type JobRecord, type ResultCtx } from './results.js'

/** What holdForOcr kept of a scan asked with `ocr` (the job's `result` while it is processing). */
interface Held {
  key: string
  mime: string
  name: string
  ip: string
}

/**
 * A scan asked with `ocr` (spec 000 §7 config_printer.ocr) goes through the documents plugin's OCR
 * (`documents.ocr`): the searchable PDF is what reaches the form field. Without that plugin, or when the
 * engine cannot read the scan, the scan itself goes to the field (a scan is never lost to its OCR); an
 * engine that is not installed on this node is retried first. Run twice, it does nothing the second time
 * (the job moves from processing under a row lock; pages are billed once by key).
 */
let bound: ResultCtx | null = null

/** Binds the plugin's context for the job (in `register`: jobs are declared before the context exists). */
export function bindOcrScan(ctx: ResultCtx): void {
  bound = ctx
}

export const ocrScanJobs: PluginJob<{ jobId: string }>[] = [
  {
    name: OCR_SCAN_JOB,
    attempts: 3,
    backoffMs: 5000,
    async handle({ jobId }, job) {
      if (!bound) throw new Error('devices: the scan OCR job ran before the plugin registered')
      const ctx = bound
      const row = (await ctx.db.table('jobs').where('id', String(jobId)).first()) as JobRecord | null
      if (!row || row.status !== 'processing' || !row.result) return { state: 'gone' }
      const held = JSON.parse(row.result) as Held
      const ocr = ctx.capabilities.use<OcrCapability>(OCR_CAPABILITY)
      const dir = await mkdtemp(join(tmpdir(), 'tramita-scan-ocr-'))
      try {
        const delivered = await ctx.storage.withLocalFile(held.key, async (path) => {
          const output = join(dir, 'searchable.pdf')
          const made = ocr
            ? await ocr.searchablePdf({ path, mime: held.mime }, output, {
                billingKey: `scan:${row.id}`,
                userId: Number(row.user_id),
                signal: job.signal,
              })
            : null
          if (made && 'error' in made && made.error === 'engine_missing' && job.attempt < 3) {
            throw new Error('The OCR engine is not installed on this node')
          }
          const searchable = made !== null && !('error' in made)
          const file = searchable
            ? { path: output, name: `${held.name.replace(/\.[^.]*$/, '')}.pdf`, mime: 'application/pdf' }
            : { path, name: held.name, mime: held.mime }
          const size = (await stat(file.path)).size
          const extension = file.name.split('.').pop()?.toLowerCase() ?? ''
          const upload = { name: file.name, extension, size, clientType: file.mime, tmpPath: file.path }
          const stored = await ctx.caseFiles.stage(
            upload,
            { userId: Number(row.user_id), ip: held.ip },
            { form: row.form_key ?? '', field: row.field ?? '' },
            await languageOf(ctx, Number(row.user_id))
          )
          return deliverScan(ctx, null, row, stored, 'processing').then(
            () => (searchable ? 'ocr' : 'raw'),
            () => 'refused'
          )
        })
        await ctx.storage.delete(held.key)
        return { state: delivered }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  },
]
