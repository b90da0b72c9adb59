import db from '@adonisjs/lucid/services/db'
import { randomBytes } from 'node:crypto'
import { validateConfig, validateProcess, withDefaults, type ConfigProblem } from '@tramita/contract'

/** A form version refused: every problem of the jsonconfig and the process, each with its path. */
export class DefinitionProblems extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; '))
  }
}

/** Both documents checked together: the process names the form's fields. */
export function definitionProblems(jsonconfig: unknown, process: unknown): ConfigProblem[] {
  const form = validateConfig(jsonconfig).map((p) => ({ ...p, path: `/jsonconfig${p.path}` }))
  if (form.length > 0) return form
  return validateProcess(process, withDefaults(jsonconfig)).map((p) => ({ ...p, path: `/process${p.path}` }))
}

/**
 * Publishes a new immutable version of a form (creating the form when `formId` is absent). Running
 * cases keep the version they started on; new cases take the newest.
 */
export async function publishForm(input: {
  formId?: number
  name: string
  jsonconfig: unknown
  process: unknown
  userId: number | null
}): Promise<{ formId: number; key: string; versionId: number; version: number }> {
  const problems = definitionProblems(input.jsonconfig, input.process)
  if (problems.length > 0) throw new DefinitionProblems(problems)
  return db.transaction(async (trx) => {
    const now = new Date()
    let formId = input.formId
    let key: string
    if (formId === undefined) {
      key = randomBytes(16).toString('base64url')
      const [id] = await trx
        .table('forms')
        .insert({ key, name: input.name, created_by: input.userId, created_at: now, updated_at: now })
      formId = Number(id)
    } else {
      const form = await trx.from('forms').where('id', formId).forUpdate().first()
      if (!form) throw new DefinitionProblems([{ path: '/form_id', message: 'the form does not exist' }])
      key = form.key
      await trx.from('forms').where('id', formId).update({ name: input.name, updated_at: now })
    }
    const last = await trx.from('form_versions').where('form_id', formId).max('version as v').first()
    const version = Number(last?.v ?? 0) + 1
    const [versionId] = await trx.table('form_versions').insert({
      form_id: formId,
      version,
      jsonconfig: JSON.stringify(input.jsonconfig),
      process: JSON.stringify(input.process),
      published_at: now,
      created_by: input.userId,
      created_at: now,
    })
    return { formId, key, versionId: Number(versionId), version }
  })
}
