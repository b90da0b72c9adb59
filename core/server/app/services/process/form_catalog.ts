import db from '@adonisjs/lucid/services/db'

/** What the designer lists and opens: forms, their draft and their published versions. */

export interface FormSummary {
  id: number
  name: string
  key: string
  /** Published versions. */
  versions: number
  latest_version: number | null
  draft_updated_at: Date | null
  updated_at: Date
}

export async function listForms(): Promise<FormSummary[]> {
  const rows = await db
    .from('forms as f')
    .leftJoin('form_versions as v', 'v.form_id', 'f.id')
    .groupBy('f.id', 'f.name', 'f.key', 'f.updated_at')
    .orderBy('f.name')
    .select('f.id', 'f.name', 'f.key', 'f.updated_at')
    .select(
      db.raw('sum(case when v.published_at is not null then 1 else 0 end) as versions'),
      db.raw('max(case when v.published_at is not null then v.version end) as latest_version'),
      db.raw('max(case when v.published_at is null then v.updated_at end) as draft_updated_at')
    )
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    name: String(r.name),
    key: String(r.key),
    versions: Number(r.versions ?? 0),
    latest_version: r.latest_version === null ? null : Number(r.latest_version),
    draft_updated_at: dateOf(r.draft_updated_at),
    updated_at: dateOf(r.updated_at)!,
  }))
}

/** SQLite answers timestamps as epoch ms, MySQL as Date; an aggregate may come back as text. */
function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  return value instanceof Date
    ? value
    : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string))
}

export interface FormDetail {
  id: number
  name: string
  key: string
  /** The draft, or a copy of the latest version to start one from (`draft_updated_at` null then). */
  draft: { jsonconfig: unknown; process: unknown } | null
  draft_updated_at: Date | null
  versions: { version: number; published_at: Date }[]
}

export async function formDetail(formId: number): Promise<FormDetail | null> {
  const form = await db.from('forms').where('id', formId).select('id', 'name', 'key').first()
  if (!form) return null
  // Every version's dates, but the documents of only the one opened.
  const rows = await db
    .from('form_versions')
    .where('form_id', formId)
    .orderBy('version', 'desc')
    .select('id', 'version', 'published_at', 'updated_at')
  const draftRow = rows.find((r) => r.published_at === null)
  const base = draftRow ?? rows[0]
  const documents = base
    ? await db.from('form_versions').where('id', base.id).select('jsonconfig', 'process').first()
    : null
  return {
    id: Number(form.id),
    name: form.name,
    key: form.key,
    draft: documents ? { jsonconfig: JSON.parse(documents.jsonconfig), process: JSON.parse(documents.process) } : null,
    draft_updated_at: draftRow ? dateOf(draftRow.updated_at) : null,
    versions: rows
      .filter((r) => r.published_at !== null)
      .map((r) => ({ version: Number(r.version), published_at: dateOf(r.published_at)! })),
  }
}

/** One published version's documents. */
export async function versionDocument(formId: number, version: number) {
  const row = await db
    .from('form_versions as v')
    .join('forms as f', 'f.id', 'v.form_id')
    .where('v.form_id', formId)
    .where('v.version', version)
    .whereNotNull('v.published_at')
    .select('f.name', 'v.version', 'v.jsonconfig', 'v.process', 'v.published_at')
    .first()
  if (!row) return null
  return {
    name: String(row.name),
    version: Number(row.version),
    jsonconfig: JSON.parse(row.jsonconfig) as unknown,
    process: JSON.parse(row.process) as unknown,
    published_at: dateOf(row.published_at)!,
  }
}
