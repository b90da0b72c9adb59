import db from '@adonisjs/lucid/services/db'
import {
  processWithDefaults,
  withDefaults,
  type FieldTypeRegistry,
  type FormConfig,
  type ProcessDefinition,
} from '@tramita/contract'
import { fieldTypeRegistry } from '#plugins/field_types'

/** A published form version as the engine runs it: jsonconfig and process, parsed and defaulted once. */
export interface LoadedVersion {
  id: number
  formId: number
  formKey: string
  formName: string
  version: number
  /** The jsonconfig as stored (validateSubmission keeps its own defaulted copy per object). */
  config: unknown
  form: FormConfig
  process: ProcessDefinition
}

/**
 * Published versions never change, so they are cached by id (least recently used beyond the cap), on
 * each node. Their form's name can (a rename in the designer): lists read it fresh (latestVersions).
 */
const CAP = 200
const cache = new Map<number, LoadedVersion>()

type VersionRow = {
  id: number
  form_id: number
  version: number
  jsonconfig: string
  process: string
  key: string
  name: string
}

function load(row: VersionRow, fieldTypes: FieldTypeRegistry): LoadedVersion {
  const config = JSON.parse(row.jsonconfig) as unknown
  return {
    id: row.id,
    formId: row.form_id,
    formKey: row.key,
    formName: row.name,
    version: row.version,
    config,
    form: withDefaults(config, fieldTypes),
    process: processWithDefaults(JSON.parse(row.process)),
  }
}

function remember(version: LoadedVersion): LoadedVersion {
  cache.delete(version.id)
  cache.set(version.id, version)
  if (cache.size > CAP) cache.delete(cache.keys().next().value!)
  return version
}

const columns = ['v.id', 'v.form_id', 'v.version', 'v.jsonconfig', 'v.process', 'f.key', 'f.name']

export async function versionById(id: number): Promise<LoadedVersion | null> {
  const hit = cache.get(id)
  if (hit) return remember(hit)
  const row = (await db
    .from('form_versions as v')
    .join('forms as f', 'f.id', 'v.form_id')
    .where('v.id', id)
    .whereNotNull('v.published_at')
    .select(columns)
    .first()) as VersionRow | null
  return row ? remember(load(row, await fieldTypeRegistry())) : null
}

/** The newest published version of the form with this key (what /forms/new?data=KEY starts). */
export async function latestVersionByKey(key: string): Promise<LoadedVersion | null> {
  if (typeof key !== 'string' || key.length === 0 || key.length > 32) return null
  const row = (await db
    .from('form_versions as v')
    .join('forms as f', 'f.id', 'v.form_id')
    .where('f.key', key)
    .whereNotNull('v.published_at')
    .orderBy('v.version', 'desc')
    .select('v.id')
    .first()) as { id: number } | null
  return row ? versionById(row.id) : null
}

/** Several versions at once (an inbox page spans many cases): one query for those not cached yet. */
export async function versionsByIds(ids: Iterable<number>): Promise<Map<number, LoadedVersion>> {
  const found = new Map<number, LoadedVersion>()
  const missing: number[] = []
  for (const id of new Set(ids)) {
    const hit = cache.get(id)
    if (hit) found.set(id, remember(hit))
    else missing.push(id)
  }
  if (missing.length > 0) {
    const rows = (await db
      .from('form_versions as v')
      .join('forms as f', 'f.id', 'v.form_id')
      .whereIn('v.id', missing)
      .whereNotNull('v.published_at')
      .select(columns)) as VersionRow[]
    const fieldTypes = await fieldTypeRegistry()
    for (const row of rows) found.set(row.id, remember(load(row, fieldTypes)))
  }
  return found
}

/** The newest published version of every form (the processes someone may start), by form name. */
export async function latestVersions(limit = 1000): Promise<LoadedVersion[]> {
  const rows = (await db
    .from('form_versions as v')
    .join('forms as f', 'f.id', 'v.form_id')
    .whereNotNull('v.published_at')
    .whereRaw(
      'v.version = (select max(v2.version) from form_versions v2 where v2.form_id = v.form_id and v2.published_at is not null)'
    )
    .orderBy('f.name')
    .limit(limit)
    .select('v.id', 'f.name')) as { id: number; name: string }[]
  const versions = await versionsByIds(rows.map((r) => r.id))
  // The form's name as it is now: a rename (designer draft) changes it without a new version, and a
  // version cached before it, here or on another node, still holds the old one.
  return rows.flatMap((r) => {
    const version = versions.get(r.id)
    return version ? [version.formName === r.name ? version : { ...version, formName: r.name }] : []
  })
}
