import type { PluginContext, PluginPrincipal, PluginRequest, PluginRoute } from '@tramita/plugin-api'
import { SHARING_ROUTES } from '../../shared/sharing.js'
import { createLink, linkAccesses, linkSettingsOf, listLinks, revokeLink } from './links.js'
import { openLink, serveGrant, verifyLink } from './public_access.js'
import { emailOf, granteesOf, listShares, revokeShare, shareByEmail, shareWith, updateShare } from './shares.js'
import { badRequest, flagOf, idOf, itemTypeOf, permissionOf } from './values.js'

/** The sharing area's routes (thin: the services above hold the rules). */

function principal(req: PluginRequest): PluginPrincipal {
  if (!req.principal) throw badRequest()
  return req.principal
}

function itemOf(req: PluginRequest) {
  return { type: itemTypeOf(req.field('type')), id: idOf(req.field('id')) }
}

function pageOf(req: PluginRequest) {
  const limit = req.field('limit') === undefined ? 50 : idOf(req.field('limit'))
  const offsetText = req.field('offset') ?? '0'
  if (!/^\d{1,9}$/.test(offsetText)) throw badRequest()
  return { limit: Math.min(limit, 200), offset: Number(offsetText) }
}

function route(
  entry: { method: PluginRoute['method']; path: string },
  rest: Omit<PluginRoute, 'method' | 'path'>
): PluginRoute {
  return { method: entry.method, path: entry.path, ...rest }
}

export function sharingRoutes(ctx: PluginContext): PluginRoute[] {
  const signedIn = 'signed-in' as const
  return [
    route(SHARING_ROUTES.list, { auth: signedIn, handle: (req) => listShares(ctx, principal(req), itemOf(req)) }),
    route(SHARING_ROUTES.share, {
      auth: signedIn,
      handle: (req) =>
        shareWith(
          ctx,
          principal(req),
          itemOf(req),
          granteesOf(req.json('grantees')),
          permissionOf(req.field('permission'))
        ),
    }),
    route(SHARING_ROUTES.shareByEmail, {
      auth: signedIn,
      // Each call may mail an outsider: kept to a human pace.
      rateLimit: { per: 'user', max: 30, windowSeconds: 600 },
      handle: (req) => {
        const language = (['es', 'en', 'zh'] as const).find((l) => l === req.field('language')) ?? req.language
        return shareByEmail(
          ctx,
          principal(req),
          itemOf(req),
          emailOf(req.field('email')),
          permissionOf(req.field('permission')),
          language
        )
      },
    }),
    route(SHARING_ROUTES.update, {
      auth: signedIn,
      handle: (req) => updateShare(ctx, principal(req), idOf(req.params.id), permissionOf(req.field('permission'))),
    }),
    route(SHARING_ROUTES.revoke, {
      auth: signedIn,
      handle: (req) => revokeShare(ctx, principal(req), idOf(req.params.id)),
    }),
    route(SHARING_ROUTES.links, {
      auth: signedIn,
      handle: (req) => listLinks(ctx, principal(req), idOf(req.field('file_id'))),
    }),
    route(SHARING_ROUTES.createLink, {
      auth: signedIn,
      handle: async (req) => {
        const fileId = idOf(req.field('file_id'))
        const settings = await linkSettingsOf(ctx.tokens, {
          mode: req.field('mode'),
          password: req.field('password'),
          allow_download: req.field('allow_download'),
          starts_at: req.field('starts_at'),
          ends_at: req.field('ends_at'),
        })
        return createLink(ctx, principal(req), fileId, settings)
      },
    }),
    route(SHARING_ROUTES.revokeLink, {
      auth: signedIn,
      handle: (req) => revokeLink(ctx, principal(req), idOf(req.params.id)),
    }),
    route(SHARING_ROUTES.accesses, {
      auth: signedIn,
      handle: (req) => linkAccesses(ctx, principal(req), idOf(req.params.id), pageOf(req)),
    }),
    route(SHARING_ROUTES.verify, {
      auth: 'public',
      rateLimit: { per: 'ip', max: 60, windowSeconds: 60 },
      handle: (req) => verifyLink(ctx, req.field('token')),
    }),
    route(SHARING_ROUTES.open, {
      auth: 'public',
      rateLimit: { per: 'ip', max: 30, windowSeconds: 60 },
      handle: (req) =>
        openLink(ctx, {
          token: req.params.token,
          ip: req.ip,
          socketId: req.field('socketID'),
          type: req.field('type'),
          data: req.field('data'),
        }),
    }),
    route(SHARING_ROUTES.grant, {
      auth: 'public',
      // Media players ask for many ranges of one file.
      rateLimit: { per: 'ip', max: 600, windowSeconds: 60 },
      handle: (req) => serveGrant(ctx, req.params.grant ?? '', flagOf(req.field('download')), req.ip),
    }),
  ]
}
