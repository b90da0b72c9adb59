import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { RETENTION_ADMINS, RETENTION_ROUTES, type RetentionRouteName } from '../../shared/retention.js'
import { optionalId, toId } from '../library/fields.js'
import { assignSchedule, effectiveOf, listAssignments, targetTypeOf } from './assignments.js'
import { confirmRetention, conservationCard, servePreview } from './confirm.js'
import { dueRows } from './due.js'
import { createSchedule, deleteSchedule, listSchedules, updateSchedule, type ScheduleFields } from './schedules.js'

function fieldsOf(req: PluginRequest): ScheduleFields {
  let labels: unknown
  try {
    labels = req.json('labels')
  } catch {
    throw new PluginFailure('documents.retention_bad_labels', 400)
  }
  return {
    code: req.field('code'),
    serie: req.field('serie'),
    subserie: req.field('subserie'),
    doc_type: req.field('doc_type'),
    active_years: req.field('active_years'),
    central_years: req.field('central_years'),
    disposition: req.field('disposition'),
    responsible_id: req.field('responsible_id'),
    labels,
  }
}

function principal(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('documents.access_not_found', 404)
  return req.principal
}

/** The retention routes (shared/retention.ts): thin, the rules are in schedules, assignments, due and confirm. */
export function retentionRoutes(ctx: PluginContext): PluginRoute[] {
  const admin = (name: RetentionRouteName, handle: PluginRoute['handle']): PluginRoute => ({
    ...RETENTION_ROUTES[name],
    auth: { roles: RETENTION_ADMINS },
    handle,
  })
  const target = (req: PluginRequest) => ({
    type: targetTypeOf(req.field('target_type')),
    id: toId(req.field('target_id')),
  })
  return [
    admin('schedules', async () => listSchedules(ctx)),
    admin('createSchedule', async (req) => createSchedule(ctx, principal(req), fieldsOf(req))),
    admin('updateSchedule', async (req) => updateSchedule(ctx, toId(req.params.id), fieldsOf(req))),
    admin('deleteSchedule', async (req) => deleteSchedule(ctx.db, toId(req.params.id))),
    admin('assignments', async () => listAssignments(ctx.db)),
    admin('assign', async (req) => {
      const { type, id } = target(req)
      return assignSchedule(ctx.db, type, id, optionalId(req, 'schedule_id'))
    }),
    admin('effective', async (req) => {
      const { type, id } = target(req)
      return effectiveOf(ctx.db, type, id)
    }),
    admin('due', async () => dueRows(ctx)),
    {
      ...RETENTION_ROUTES.card,
      auth: 'public',
      // 256-bit codes are not guessed; the limit keeps anyone from trying at scale.
      rateLimit: { per: 'ip', max: 30, windowSeconds: 60 },
      handle: (req) => conservationCard(ctx, req.params.code, req.field('user')),
    },
    {
      ...RETENTION_ROUTES.confirm,
      auth: 'public',
      rateLimit: { per: 'ip', max: 30, windowSeconds: 60 },
      handle: (req) =>
        confirmRetention(ctx, {
          code: req.field('code'),
          user: req.field('user'),
          option: req.field('option'),
          ip: req.ip,
        }),
    },
    {
      ...RETENTION_ROUTES.preview,
      auth: 'public',
      // A PDF viewer asks for many ranges of one file.
      rateLimit: { per: 'ip', max: 300, windowSeconds: 60 },
      handle: (req) => servePreview(ctx, req.params.grant ?? ''),
    },
  ]
}
