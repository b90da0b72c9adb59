import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OcrCapability, PluginContext } from '@tramita/plugin-api'
import { documentsSettings } from '../library/usage.js'
import { ocrWhole, SKIP_MARK } from './engine.js'
import { OCR_LIMITS, OCR_USAGE_METRIC } from './run.js'

const OCR_INPUTS = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/tiff'])

/**
 * The documents plugin's OCR offered to other plugins (`documents.ocr`, plugin-api capabilities): a
 * device's scan made searchable by the same engine, languages and limits, each page billed once
 * under the caller's key as the library's pages are.
 */
export function ocrCapability(ctx: Pick<PluginContext, 'settings' | 'usage'>): OcrCapability {
  return {
    async searchablePdf(input, output, opts) {
      if (!OCR_INPUTS.has(input.mime)) return { error: 'unreadable' }
      const size = (await stat(input.path).catch(() => null))?.size
      if (size === undefined || size > OCR_LIMITS.maxBytes) return { error: 'unreadable' }
      const { ocrLanguages: languages } = await documentsSettings(ctx.settings)
      const dir = await mkdtemp(join(tmpdir(), 'tramita-ocr-file-'))
      try {
        const image = input.mime.startsWith('image/')
        const files = { output, sidecar: join(dir, 'text.txt') }
        const result = await ocrWhole(input.path, files, { image, languages, signal: opts.signal })
        if (result === 'missing') return { error: 'engine_missing' }
        if (!result) return { error: 'failed' }
        const pages = result.texts.map((text): 'skip' | 'ocr' | 'scan' =>
          text === SKIP_MARK ? 'skip' : text ? 'ocr' : 'scan'
        )
        for (const [i, state] of pages.entries()) {
          if (state === 'skip') continue
          await ctx.usage.record(OCR_USAGE_METRIC, `${opts.billingKey}:p${i + 1}`, 1, { userId: opts.userId })
        }
        const text = result.texts.filter((t) => t !== SKIP_MARK).join('\n')
        return { pages, text: text.slice(0, OCR_LIMITS.bodyChars) }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}
