import { PluginFailure, type PluginContext, type PluginRequest, type PluginRoute } from '@tramita/plugin-api'
import { INDEX_ROUTES, type IndexRouteName } from '../../shared/indexes.js'
import { optionalId, toId } from '../library/fields.js'
import {
  createIndex,
  deleteIndex,
  fileIndexValues,
  fileUnderIndex,
  listIndexes,
  unfile,
  updateIndex,
} from './indexes.js'
import { selectIndexing } from './select_indexing.js'

function caller(req: PluginRequest) {
  if (!req.principal) throw new PluginFailure('documents.access_not_found', 404)
  return req.principal
}

/** A JSON field; one that does not parse is the route's own clear failure. */
function jsonOf(req: PluginRequest, name: string, failure: string): unknown {
  try {
    return req.json(name)
  } catch {
    throw new PluginFailure(failure, 400)
  }
}

/** The indexes' routes (shared/indexes.ts), and `select_indexing` for the forms' lookups. */
export function indexRoutes(ctx: PluginContext): PluginRoute[] {
  ctx.forms.linkModule('select_indexing', (input, who) => selectIndexing(ctx, input, who))
  const route = (name: IndexRouteName, handle: PluginRoute['handle']): PluginRoute => ({
    method: INDEX_ROUTES[name].method,
    path: INDEX_ROUTES[name].path,
    auth: 'signed-in',
    handle,
  })
  return [
    route('list', async (req) => listIndexes(ctx.db, caller(req))),
    route('create', async (req) =>
      createIndex(ctx.db, caller(req), {
        name: req.field('name'),
        parentId: optionalId(req, 'parent_id'),
        columns: jsonOf(req, 'columns', 'documents.index_invalid_columns'),
      })
    ),
    route('update', async (req) =>
      updateIndex(ctx.db, caller(req), toId(req.params.id), {
        name: req.field('name'),
        columns: jsonOf(req, 'columns', 'documents.index_invalid_columns'),
      })
    ),
    route('remove', async (req) => deleteIndex(ctx.db, caller(req), toId(req.params.id))),
    route('fileValues', async (req) => fileIndexValues(ctx, caller(req), toId(req.params.id))),
    route('file', async (req) =>
      fileUnderIndex(
        ctx,
        caller(req),
        toId(req.params.id),
        toId(req.params.index),
        jsonOf(req, 'values', 'documents.index_invalid_values')
      )
    ),
    route('unfile', async (req) => unfile(ctx, caller(req), toId(req.params.id), toId(req.params.index))),
  ]
}
