import { PluginFailure, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import { LIBRARY_LIMITS, type CommentRow } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { iso } from './fields.js'
import { peopleRefs } from './rows.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

/** The last comments on a file I may read (spec 001 §9: the last 5), oldest first, with authors' names. */
export async function listComments(deps: Deps, who: PluginPrincipal, fileId: number): Promise<CommentRow[]> {
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  const rows = (await deps.db
    .table('comments')
    .select('id', 'user_id', 'text', 'created_at')
    .where('file_id', fileId)
    .orderBy('id', 'desc')
    .limit(LIBRARY_LIMITS.commentsShown)) as { id: number; user_id: number | null; text: string; created_at: unknown }[]
  const people = await peopleRefs(
    deps.people,
    rows.map((r) => r.user_id)
  )
  return rows.reverse().map((r) => ({
    id: r.id,
    text: r.text,
    created_at: iso(r.created_at),
    author: r.user_id === null ? null : (people.get(r.user_id) ?? null),
  }))
}

/** Adds a comment (spec 001 §5: it must be filled) to a file I may read. */
export async function addComment(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  raw: string | undefined
): Promise<CommentRow[]> {
  const text = (raw ?? '').trim()
  if (text === '') throw new PluginFailure('documents.comment_empty', 400)
  if (text.length > LIBRARY_LIMITS.commentMax) throw new PluginFailure('documents.comment_too_long', 400)
  await requirePermission(deps, who, { type: 'file', id: fileId }, 'read')
  await deps.db.table('comments').insert({ file_id: fileId, user_id: who.userId, text, created_at: new Date() })
  return listComments(deps, who, fileId)
}
