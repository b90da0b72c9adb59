import { isUniqueViolation, PluginFailure, type PluginPrincipal, type PluginServices } from '@tramita/plugin-api'
import { LIBRARY_LIMITS, type FileRow, type LabelRow } from '../../shared/library.js'
import { requirePermission } from '../sharing/access.js'
import { oneFileRow } from './rows.js'
import { indexFile } from './search_row.js'

type Deps = Pick<PluginServices, 'db' | 'people'>

const COLOR = /^#[0-9a-fA-F]{6}$/

export interface LabelInput {
  name: string | undefined
  description: string | undefined
  color: string | undefined
}

function cleanLabel(input: LabelInput) {
  const name = (input.name ?? '').trim()
  // eslint-disable-next-line no-control-regex
  if (name === '' || name.length > LIBRARY_LIMITS.labelNameMax || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new PluginFailure('documents.label_invalid_name', 400)
  }
  const description = (input.description ?? '').trim()
  if (description.length > LIBRARY_LIMITS.labelDescriptionMax) {
    throw new PluginFailure('documents.label_invalid_description', 400)
  }
  const color = (input.color ?? '').trim()
  if (!COLOR.test(color)) throw new PluginFailure('documents.label_invalid_color', 400)
  return { name, description: description || null, color: color.toLowerCase() }
}

const toRow = (r: LabelRow): LabelRow => ({ id: r.id, name: r.name, description: r.description, color: r.color })

export async function listLabels(deps: Pick<Deps, 'db'>, who: PluginPrincipal): Promise<LabelRow[]> {
  const rows = await deps.db
    .table('labels')
    .select('id', 'name', 'description', 'color')
    .where('owner_id', who.userId)
    .orderBy('name')
  return rows.map(toRow)
}

const nameTakenFailure = () => new PluginFailure('documents.label_name_taken', 409)

/** A name already among the owner's labels: the unique (owner, name) key refuses it, racing requests too. */
function uniqueAsTaken(error: unknown): never {
  throw isUniqueViolation(error) ? nameTakenFailure() : error
}

export async function createLabel(deps: Pick<Deps, 'db'>, who: PluginPrincipal, input: LabelInput): Promise<LabelRow> {
  const label = cleanLabel(input)
  const [id] = await deps.db
    .table('labels')
    .insert({ ...label, owner_id: who.userId, created_at: new Date() })
    .catch(uniqueAsTaken)
  return { id, ...label }
}

async function myLabel(db: Deps['db'], who: PluginPrincipal, id: number) {
  const row = await db.table('labels').select('id').where('id', id).where('owner_id', who.userId).forUpdate().first()
  if (!row) throw new PluginFailure('documents.label_not_found', 404)
}

/** Files carrying a label, to re-index after it changes. */
async function filesWith(db: Deps['db'], labelId: number): Promise<number[]> {
  const rows = await db.table('file_labels').select('file_id').where('label_id', labelId)
  return rows.map((r: { file_id: number }) => r.file_id)
}

export async function updateLabel(
  deps: Pick<Deps, 'db'>,
  who: PluginPrincipal,
  id: number,
  input: LabelInput
): Promise<LabelRow> {
  const label = cleanLabel(input)
  await deps.db
    .transaction(async (db) => {
      await myLabel(db, who, id)
      await db.table('labels').where('id', id).update(label)
      for (const fileId of await filesWith(db, id)) await indexFile(db, fileId)
    })
    .catch(uniqueAsTaken)
  return { id, ...label }
}

export async function deleteLabel(deps: Pick<Deps, 'db'>, who: PluginPrincipal, id: number): Promise<{ id: number }> {
  await deps.db.transaction(async (db) => {
    await myLabel(db, who, id)
    const files = await filesWith(db, id)
    await db.table('file_labels').where('label_id', id).delete()
    await db.table('labels').where('id', id).delete()
    for (const fileId of files) await indexFile(db, fileId)
  })
  return { id }
}

/**
 * Sets which of my labels a file I may read carries (labels are personal: another user's labels on
 * the same file stay as they are).
 */
export async function setFileLabels(
  deps: Deps,
  who: PluginPrincipal,
  fileId: number,
  labelIds: number[]
): Promise<FileRow> {
  const permission = await deps.db.transaction(async (db) => {
    const { permission } = await requirePermission({ db }, who, { type: 'file', id: fileId }, 'read')
    if (labelIds.length) {
      const mine = await db.table('labels').select('id').whereIn('id', labelIds).where('owner_id', who.userId)
      if (mine.length !== labelIds.length) throw new PluginFailure('documents.label_not_found', 404)
    }
    const myLabels = db.table('labels').select('id').where('owner_id', who.userId)
    await db.table('file_labels').where('file_id', fileId).whereIn('label_id', myLabels).delete()
    if (labelIds.length) {
      await db.table('file_labels').insert(labelIds.map((labelId) => ({ file_id: fileId, label_id: labelId })))
    }
    await indexFile(db, fileId)
    return permission
  })
  return oneFileRow(deps, who.userId, fileId, permission!)
}
