import type { PluginContext, PluginRequest, PluginRoute } from '@tramita/plugin-api'
import { OPERATION_LIMITS, OPERATIONS_PATHS, type CopyType, type MergeType } from '../../shared/operations.js'
import { copyItems } from './copy.js'
import { failure } from './failures.js'
import { documentInfo, folderInfo } from './info.js'
import { fileRefList, flag, idList, optionalId } from './input.js'
import { mergeDocuments } from './merge.js'
import { renameFile, renameFolder } from './rename.js'
import { searchDocFolder } from './search_doc_folder.js'

/** The signed-in caller (the core refuses anonymous calls to these routes before the handler). */
const principal = (req: PluginRequest) => req.principal!

/**
 * The operations area's routes: the spec's calls (001 §7) under /inside/forms/create/search_endpoint,
 * each a POST for any signed-in user; what they may touch is checked item by item (sharing/access.ts).
 */
export function operationsRoutes(ctx: PluginContext): PluginRoute[] {
  const route = (path: string, handle: PluginRoute['handle'], rateLimit?: PluginRoute['rateLimit']): PluginRoute => ({
    method: 'POST',
    path,
    auth: 'signed-in',
    ...(rateLimit ? { rateLimit } : {}),
    handle,
  })
  return [
    route(OPERATIONS_PATHS.renameDoc, (req) =>
      renameFile(ctx, principal(req), req.field('id_doc'), req.field('name_doc'))
    ),
    route(OPERATIONS_PATHS.renameFolder, (req) =>
      renameFolder(ctx, principal(req), req.field('id_folder'), req.field('name_folder'))
    ),
    route(OPERATIONS_PATHS.copy, async (req) => {
      const type = (req.field('type') ?? '').trim().toLowerCase()
      if (type !== 'copy' && type !== 'cut') throw failure('copy', 400, 'invalid_type')
      return copyItems(ctx, principal(req), {
        type: type as CopyType,
        dest: optionalId('copy', req.field('folder_dest')),
        files: idList('copy', req, 'id_doc', OPERATION_LIMITS.copyItems),
        folders: idList('copy', req, 'id_folder', OPERATION_LIMITS.copyItems),
      })
    }),
    route(OPERATIONS_PATHS.infoDoc, (req) => documentInfo(ctx, principal(req), req.field('id_doc'))),
    route(OPERATIONS_PATHS.infoFolder, (req) => folderInfo(ctx, principal(req), req.field('id_folder'))),
    route(OPERATIONS_PATHS.search, (req) => searchDocFolder(ctx, principal(req), req), {
      per: 'user',
      max: 120,
      windowSeconds: 60,
    }),
    route(
      OPERATIONS_PATHS.merge,
      async (req) => {
        const type = (req.field('type_merge') ?? 'merge_docs').trim()
        if (type !== 'merge_docs' && type !== 'zip_docs') throw failure('copy', 400, 'invalid_type')
        return mergeDocuments(ctx, principal(req), {
          type: type as MergeType,
          files: fileRefList('copy', req, 'rutes_merge', OPERATION_LIMITS.zipFiles + 1),
          name: req.field('name_doc'),
          save: flag(req.field('save_doc')),
          folderId: optionalId('copy', req.field('folder_id')),
        })
      },
      { per: 'user', max: 30, windowSeconds: 60 }
    ),
  ]
}
