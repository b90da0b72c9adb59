import { PluginFailure, type PluginContext, type PluginRoute } from '@tramita/plugin-api'
import { DEVICES_ROUTES } from '../../shared/devices.js'
import { openSignature, receiveSignature, SIGNATURE_MAX_BYTES } from './requests.js'
import { templatePdf } from './template.js'

/** A day: the template is the same for everyone and changes only with the plugin. */
const TEMPLATE_MAX_AGE = 24 * 3600

/**
 * The signing flow's routes (spec 000 §7): the template PDF (public), a signature request (signed in),
 * and the signed PDF's upload (public: its token is its key; POST as the spec says, PUT for signing
 * apps that send a file to an address).
 */
export function signatureRoutes(ctx: PluginContext): PluginRoute[] {
  const upload: PluginRoute['handle'] = async (req) => {
    const { token } = await receiveSignature(ctx, String(req.params.file ?? ''), req.file('file'), req.ip)
    return { token, message: ctx.texts.t(req.language, 'devices.signature.received') }
  }
  const uploadRoute = (method: 'POST' | 'PUT'): PluginRoute => ({
    method,
    path: DEVICES_ROUTES.uploadSignature.path,
    auth: 'public',
    maxBytes: SIGNATURE_MAX_BYTES,
    rateLimit: { per: 'ip', max: 60, windowSeconds: 60 },
    handle: upload,
  })
  return [
    {
      method: 'GET',
      path: DEVICES_ROUTES.signatureTemplate.path,
      auth: 'public',
      async handle() {
        // One template for everyone: its texts in the default language.
        const bytes = await templatePdf(
          ctx.texts.t('es', 'devices.signature.template_label'),
          ctx.texts.t('es', 'devices.signature.template_hint')
        )
        return {
          kind: 'file',
          source: {
            stream: (async function* () {
              yield bytes
            })(),
          },
          name: 'plantilla_firma.pdf',
          mime: 'application/pdf',
          disposition: 'inline',
          size: bytes.length,
          publicMaxAge: TEMPLATE_MAX_AGE,
        }
      },
    },
    {
      method: 'POST',
      path: DEVICES_ROUTES.openSignature.path,
      auth: 'signed-in',
      rateLimit: { per: 'user', max: 30, windowSeconds: 60 },
      async handle(req) {
        if (!req.principal) throw new PluginFailure('devices.machine_not_found', 404)
        return openSignature(ctx, req.principal, {
          form: req.field('data'),
          field: req.field('field'),
          machine: req.field('machine') || undefined,
        })
      },
    },
    uploadRoute('POST'),
    uploadRoute('PUT'),
  ]
}
