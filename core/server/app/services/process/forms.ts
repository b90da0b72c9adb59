import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { randomBytes } from 'node:crypto'
import { definitionProblems, DefinitionProblems, type Definition } from '@tramita/contract'
import { actionTypeRegistry } from '#plugins/action_types'
import { fieldTypeRegistry } from '#plugins/field_types'

export { definitionProblems, DefinitionProblems, recordOnlyProcess, type Definition } from '@tramita/contract'

/**
 * A form's definitions live in `form_versions`: published rows never change (running cases keep
 * theirs), and at most one unpublished row per form is its draft, the next version being designed.
 * Publishing stamps the draft; the next save of the designer starts a new draft.
 */

/** A new form row; its key is the `data` parameter of /forms/new, unguessable so ids cannot be enumerated. */
async function insertForm(trx: TransactionClientContract, name: string, userId: number | null) {
  const now = new Date()
  const key = randomBytes(16).toString('base64url')
  const [id] = await trx.table('forms').insert({ key, name, created_by: userId, created_at: now, updated_at: now })
  return { formId: Number(id), key }
}

/** Creates a form whose first draft is `definition`; nothing is published. */
export async function createForm(
  definition: Definition,
  userId: number | null
): Promise<{ formId: number; key: string }> {
  return db.transaction(async (trx) => {
    const form = await insertForm(trx, definition.name, userId)
    await writeDraft(trx, form.formId, definition, userId)
    return form
  })
}

/** The form's row, locked for the rest of the transaction (drafts and publications of one form queue). */
async function lockForm(trx: TransactionClientContract, formId: number) {
  const form = await trx.from('forms').where('id', formId).forUpdate().first()
  if (!form) throw new DefinitionProblems([{ path: '/form_id', message: 'the form does not exist' }])
  return form as { id: number; key: string; name: string }
}

/** Replaces the draft (or starts one, numbered after the last version) and the form's name. */
async function writeDraft(
  trx: TransactionClientContract,
  formId: number,
  definition: Definition,
  userId: number | null
): Promise<{ id: number; version: number; updatedAt: Date }> {
  const now = new Date()
  const documents = { jsonconfig: JSON.stringify(definition.jsonconfig), process: JSON.stringify(definition.process) }
  await trx.from('forms').where('id', formId).update({ name: definition.name, updated_at: now })
  const draft = await trx
    .from('form_versions')
    .where('form_id', formId)
    .whereNull('published_at')
    .select('id', 'version')
    .first()
  if (draft) {
    await trx
      .from('form_versions')
      .where('id', draft.id)
      .update({ ...documents, updated_at: now, updated_by: userId })
    return { id: Number(draft.id), version: Number(draft.version), updatedAt: now }
  }
  const last = await trx.from('form_versions').where('form_id', formId).max('version as v').first()
  const version = Number(last?.v ?? 0) + 1
  const [id] = await trx.table('form_versions').insert({
    form_id: formId,
    version,
    ...documents,
    published_at: null,
    created_by: userId,
    created_at: now,
    updated_at: now,
    updated_by: userId,
  })
  return { id: Number(id), version, updatedAt: now }
}

/** Saves the designer's draft as it is (problems and all); answers its problems and when it was saved. */
export async function saveDraft(formId: number, definition: Definition, userId: number | null) {
  const { updatedAt } = await db.transaction(async (trx) => {
    await lockForm(trx, formId)
    return writeDraft(trx, formId, definition, userId)
  })
  const fieldTypes = await fieldTypeRegistry()
  return {
    problems: definitionProblems(definition.jsonconfig, definition.process, {
      fieldTypes,
      actionTypes: await actionTypeRegistry(),
    }),
    updatedAt,
  }
}

/** From here on the version never changes. */
async function stamp(trx: TransactionClientContract, versionId: number, userId: number | null) {
  await trx.from('form_versions').where('id', versionId).update({ published_at: new Date(), updated_by: userId })
}

/** Publishes the form's draft, which must be free of problems; answers the new version's number. */
export async function publishDraft(
  formId: number,
  userId: number | null
): Promise<{ versionId: number; version: number }> {
  const fieldTypes = await fieldTypeRegistry()
  return db.transaction(async (trx) => {
    await lockForm(trx, formId)
    const draft = await trx.from('form_versions').where('form_id', formId).whereNull('published_at').first()
    if (!draft) throw new DefinitionProblems([{ path: '/draft', message: 'there is no draft to publish' }])
    const problems = definitionProblems(JSON.parse(draft.jsonconfig), JSON.parse(draft.process), {
      fieldTypes,
      actionTypes: await actionTypeRegistry(),
    })
    if (problems.length > 0) throw new DefinitionProblems(problems)
    await stamp(trx, Number(draft.id), userId)
    return { versionId: Number(draft.id), version: Number(draft.version) }
  })
}

/**
 * Publishes a definition as the form's next version in one transaction (creating the form when
 * `formId` is absent), replacing any draft: the seeds, the CLI and the benchmarks.
 */
export async function publishForm(
  input: Definition & { formId?: number; userId: number | null }
): Promise<{ formId: number; key: string; versionId: number; version: number }> {
  const problems = definitionProblems(input.jsonconfig, input.process, {
    fieldTypes: await fieldTypeRegistry(),
    actionTypes: await actionTypeRegistry(),
  })
  if (problems.length > 0) throw new DefinitionProblems(problems)
  return db.transaction(async (trx) => {
    const form =
      input.formId === undefined
        ? await insertForm(trx, input.name, input.userId)
        : { formId: input.formId, key: (await lockForm(trx, input.formId)).key }
    const draft = await writeDraft(trx, form.formId, input, input.userId)
    await stamp(trx, draft.id, input.userId)
    return { ...form, versionId: draft.id, version: draft.version }
  })
}
