import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { OCR_ROUTES, type OcrRouteName } from '../../shared/ocr.js'
import { optionalId, toId } from '../library/fields.js'
import { ocrMode, ocrStatus, searchablePdf, startOcr } from './service.js'

function caller(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('documents.access_not_found', 404)
  return req.principal
}

/** OCR's routes (shared/ocr.ts): queue a file's current version, follow it, download the searchable PDF. */
export function ocrRoutes(ctx: PluginContext): PluginRoute[] {
  const route = (name: OcrRouteName, handle: PluginRoute['handle'], extra: Partial<PluginRoute> = {}) => ({
    method: OCR_ROUTES[name].method,
    path: OCR_ROUTES[name].path,
    auth: 'signed-in' as const,
    handle,
    ...extra,
  })
  return [
    route('start', (req) => startOcr(ctx, caller(req), toId(req.params.id), ocrMode(req.field('mode'))), {
      rateLimit: { per: 'user', max: 60, windowSeconds: 60 },
    }),
    route('status', (req) => ocrStatus(ctx, caller(req), toId(req.params.id))),
    route('pdf', (req) =>
      searchablePdf(ctx, caller(req), toId(req.params.id), optionalId(req, 'version'), req.field('download') === '1')
    ),
  ]
}
