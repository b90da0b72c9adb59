import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { DEVICES_ROUTES, PRINT_EVENT, type DevicesRouteName, type PrintEvent } from '../../shared/devices.js'
import { AGENT_FILE_PATH, AGENT_RESULT_PATH } from '../../shared/protocol.js'
import { SCAN_BODY_BYTES } from '../../shared/settings.js'
import { agentByToken } from '../agents/agents.js'
import { devicesSettings } from '../settings.js'
import { placeJob, reachableMachine } from './orders.js'
import { printFiles, printOptions, scanOptions, scanTarget } from './options.js'
import { finishScan, type ResultCtx } from './results.js'
import { machineOptions } from '../machines/options.js'

type Ctx = PluginContext

function caller(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('devices.machine_not_found', 404)
  return req.principal
}

/**
 * The forms' device calls (spec 000 §7: all_machines, scan, print) and the agent's file calls beside
 * its socket (protocol.ts): the bytes a print job prints, and a scan's result.
 */
export function jobRoutes(ctx: Ctx): PluginRoute[] {
  const route = (name: DevicesRouteName, handle: PluginRoute['handle'], extra: Partial<PluginRoute> = {}) => ({
    method: DEVICES_ROUTES[name].method,
    path: DEVICES_ROUTES[name].path,
    auth: 'signed-in' as const,
    handle,
    ...extra,
  })
  const results: ResultCtx = ctx
  return [
    route('allMachines', async (req) => ({ machines: await machineOptions(ctx, caller(req)) })),

    route(
      'scan',
      async (req) => {
        const who = caller(req)
        const options = scanOptions(req.json('config_printer'))
        const target = scanTarget(req.field('token_form'), req.field('data'))
        const reachable = await reachableMachine(ctx, who, req.field('token_machine'), 'scan')
        const id = await placeJob(ctx, reachable, { kind: 'scan', userId: who.userId, ...target }, (jobId) => ({
          kind: 'scan',
          id: jobId,
          machineUid: String(reachable.machine.uid),
          ...options,
        }))
        return { job: id, status: 'sent', message: ctx.texts.t(req.language, 'devices.scan.sent') }
      },
      { rateLimit: { per: 'user', max: 60, windowSeconds: 60 } }
    ),

    route(
      'print',
      async (req) => {
        const who = caller(req)
        const options = printOptions(req.json('config_printer'), req.field('cant'))
        const reachable = await reachableMachine(ctx, who, req.field('token'), 'print')
        const { maxPrintBytes } = await devicesSettings(ctx.settings)
        const files = await printFiles(ctx, who, req.json('files'), maxPrintBytes)
        const tokenForm = req.field('token_form')?.slice(0, 300) ?? null
        let id: string
        try {
          id = await placeJob(ctx, reachable, { kind: 'print', userId: who.userId, tokenForm, files }, (jobId) => ({
            kind: 'print',
            id: jobId,
            machineUid: String(reachable.machine.uid),
            files: files.map((f, n) => ({ n, name: f.name, mime: f.mime, size: f.size })),
            ...options,
          }))
        } catch (error) {
          for (const file of files) await ctx.storage.delete(file.storage_key)
          throw error
        }
        const message = ctx.texts.t(req.language, 'devices.print.sent')
        const event: PrintEvent = { status: 'sent', data: { job: id, token_form: tokenForm }, message }
        await ctx.sockets.publish({ userId: who.userId }, { case: PRINT_EVENT, data: event })
        return { job: id, status: 'sent', message }
      },
      { rateLimit: { per: 'user', max: 60, windowSeconds: 60 } }
    ),

    {
      method: 'GET',
      path: AGENT_FILE_PATH,
      auth: 'public',
      rateLimit: { per: 'ip', max: 600, windowSeconds: 60 },
      async handle(req) {
        const agent = await agentByToken(ctx, req)
        const job = await ctx.db.table('jobs').where('id', String(req.params.id).slice(0, 36)).first()
        if (!job || Number(job.agent_id) !== Number(agent.id) || job.kind !== 'print' || job.status !== 'sent') {
          throw new PluginFailure('devices.job_not_found', 404)
        }
        const file = await ctx.db
          .table('job_files')
          .where('job_id', job.id)
          .where('n', Number(req.params.n) || 0)
          .first()
        if (!file) throw new PluginFailure('devices.job_not_found', 404)
        return {
          kind: 'file',
          source: { key: file.storage_key },
          name: file.name,
          mime: file.mime,
          disposition: 'attachment',
          size: Number(file.size),
        }
      },
    },

    {
      method: 'POST',
      path: AGENT_RESULT_PATH,
      auth: 'public',
      maxBytes: SCAN_BODY_BYTES,
      rateLimit: { per: 'ip', max: 600, windowSeconds: 60 },
      async handle(req) {
        const agent = await agentByToken(ctx, req)
        const upload = req.file('file')
        if (!upload) throw new PluginFailure('devices.scan_file_missing')
        const { maxScanBytes } = await devicesSettings(ctx.settings)
        if (upload.size > maxScanBytes) throw new PluginFailure('devices.error.no_storage', 413)
        return finishScan(results, Number(agent.id), String(req.params.id).slice(0, 36), upload, req.ip)
      },
    },
  ]
}
