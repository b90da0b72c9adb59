import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import {
  LIBRARY_LIMITS,
  LIBRARY_ROUTES,
  LIBRARY_SORTS,
  LIBRARY_VIEWS,
  type LibraryRouteName,
} from '../../shared/library.js'
import type { LibrarySort, LibraryView, TrashAnswer } from '../../shared/library.js'
import { DOCUMENTS_UPLOAD_BODY_BYTES } from '../../shared/settings.js'
import { addComment, listComments } from './comments.js'
import { idList, intField, optionalId, toId } from './fields.js'
import { makeFolder } from './folders.js'
import { createLabel, deleteLabel, listLabels, setFileLabels, updateLabel } from './labels.js'
import { listView } from './listing.js'
import { emptyTrash, restoreItems, trashItems } from './trash.js'
import { upload } from './uploads.js'
import { documentsSettings, usageOf } from './usage.js'
import { fileContent, fileInfo, listVersions, restoreVersion } from './versions.js'
import { librarySyncTouched } from '../sync/touched.js'

/** The signed-in caller (every library route is signed-in, so the core always sets one). */
function caller(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('documents.access_not_found', 404)
  return req.principal
}

function items(req: PluginRequest) {
  return { files: idList(req, 'files'), folders: idList(req, 'folders') }
}

/** The library area's routes (shared/library.ts): thin handlers over the services of this folder. */
export function libraryRoutes(ctx: PluginContext): PluginRoute[] {
  const route = (name: LibraryRouteName, handle: PluginRoute['handle'], extra: Partial<PluginRoute> = {}) => ({
    method: LIBRARY_ROUTES[name].method,
    path: LIBRARY_ROUTES[name].path,
    auth: 'signed-in' as const,
    handle,
    ...extra,
  })

  /** What left or came back from the trash, in the audit log (emptying cannot be undone). */
  const audited = async (req: PluginRequest, action: string, work: Promise<TrashAnswer>) => {
    const done = await work
    await ctx.audit.record(caller(req), action, undefined, { files: done.files, folders: done.folders })
    await librarySyncTouched(ctx, done)
    return done
  }

  return [
    route('list', async (req) => {
      const view = req.params.view as LibraryView
      if (!LIBRARY_VIEWS.includes(view)) throw new PluginFailure('documents.invalid_view', 400)
      const sort = (req.field('sort') || 'name') as LibrarySort
      if (!LIBRARY_SORTS.includes(sort)) throw new PluginFailure('documents.invalid_sort', 400)
      const order = req.field('order') || 'asc'
      if (order !== 'asc' && order !== 'desc') throw new PluginFailure('documents.invalid_sort', 400)
      return listView(ctx, caller(req), {
        view,
        folderId: optionalId(req, 'folder'),
        sort,
        order,
        limit: intField(req, 'limit', LIBRARY_LIMITS.pageSize, LIBRARY_LIMITS.maxPageSize),
        offset: intField(req, 'offset', 0, 1_000_000_000),
      })
    }),
    route('makeFolder', (req) =>
      makeFolder(ctx, caller(req), {
        name: req.field('name'),
        parentId: optionalId(req, 'parent_id'),
        type: req.field('type') || undefined,
        path: req.field('path'),
        agentId: optionalId(req, 'agent_id'),
      })
    ),
    route(
      'upload',
      async (req) => {
        const answer = await upload(ctx, caller(req), {
          files: req.files('files'),
          folderId: optionalId(req, 'folder_id'),
          newVersionOf: optionalId(req, 'new_version_of'),
          t: (key) => ctx.texts.t(req.language, key),
          language: req.language,
        })
        const stored = answer.results.flatMap((r) => (r.status === 'stored' ? [r.file.id] : []))
        if (stored.length) await librarySyncTouched(ctx, { files: stored })
        return answer
      },
      // The settings are read per request (each file is checked against them); the body's cap is fixed
      // here, and bounds the maxUploadBytes setting.
      { maxBytes: DOCUMENTS_UPLOAD_BODY_BYTES }
    ),
    route('file', (req) => fileInfo(ctx, caller(req), toId(req.params.id))),
    route('content', (req) => {
      const version = req.field('version')
      return fileContent(
        ctx,
        caller(req),
        toId(req.params.id),
        version === undefined || version === '' ? null : toId(version),
        req.field('download') === '1'
      )
    }),
    route('versions', (req) => listVersions(ctx, caller(req), toId(req.params.id))),
    route('restoreVersion', async (req) => {
      const file = await restoreVersion(ctx, caller(req), toId(req.params.id), toId(req.params.number))
      await librarySyncTouched(ctx, { files: [file.id] })
      await ctx.audit.record(
        caller(req),
        'restore_version',
        { type: 'file', id: file.id },
        {
          from: toId(req.params.number),
          to: file.current_version,
        }
      )
      return file
    }),
    route('trash', (req) => audited(req, 'trash', trashItems(ctx, caller(req), items(req)))),
    route('restore', (req) => audited(req, 'restore', restoreItems(ctx, caller(req), items(req)))),
    route('empty', (req) => audited(req, 'empty_trash', emptyTrash(ctx, caller(req), items(req)))),
    route('labels', (req) => listLabels(ctx, caller(req))),
    route('createLabel', (req) =>
      createLabel(ctx, caller(req), {
        name: req.field('name'),
        description: req.field('description'),
        color: req.field('color'),
      })
    ),
    route('updateLabel', (req) =>
      updateLabel(ctx, caller(req), toId(req.params.id), {
        name: req.field('name'),
        description: req.field('description'),
        color: req.field('color'),
      })
    ),
    route('deleteLabel', (req) => deleteLabel(ctx, caller(req), toId(req.params.id))),
    route('setLabels', (req) => setFileLabels(ctx, caller(req), toId(req.params.id), idList(req, 'label_ids', 200))),
    route('comments', (req) => listComments(ctx, caller(req), toId(req.params.id))),
    route('addComment', (req) => addComment(ctx, caller(req), toId(req.params.id), req.field('text'))),
    route('usage', async (req) => usageOf(ctx.db, await documentsSettings(ctx.settings), caller(req).userId)),
  ]
}
