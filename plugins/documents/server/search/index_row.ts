import type { PluginDb } from '@tramita/plugin-api'
import { indexText } from './text.js'

/**
 * Writes a file's documents_search row from its name, labels and metadata values, through indexText
 * (accents folded, CJK as bigrams), keeping the page text (`body`, the OCR job's) as it is. A file gone
 * or in the trash has no row. On SQLite the FTS5 rowid is the file id (the library's convention).
 */
export async function writeSearchRow(db: PluginDb, fileId: number): Promise<void> {
  const file = await db.table('files').select('id', 'name', 'trashed_at').where('id', fileId).first()
  const key = db.dialect === 'mysql' ? 'file_id' : 'rowid'
  if (!file || (file.trashed_at !== null && file.trashed_at !== undefined)) {
    await db.raw(`DELETE FROM documents_search WHERE ${key} = ?`, [fileId])
    return
  }
  const labels = await db
    .table('labels')
    .select('name')
    .whereIn('id', db.table('file_labels').select('label_id').where('file_id', fileId))
    .orderBy('name')
  const metadata = await db.table('file_metadata').select('values').where('file_id', fileId)
  const values = metadata.flatMap((row: { values: string }) => metadataWords(row.values))
  const text = {
    name: indexText(String(file.name)),
    labels: indexText(labels.map((l: { name: string }) => l.name).join(' ')),
    metadata: indexText(values.join(' ')),
  }
  const existing = await db.raw(`SELECT ${key} FROM documents_search WHERE ${key} = ?`, [fileId])
  if (existing.length) {
    await db.raw(`UPDATE documents_search SET name = ?, labels = ?, metadata = ? WHERE ${key} = ?`, [
      text.name,
      text.labels,
      text.metadata,
      fileId,
    ])
  } else if (db.dialect === 'mysql') {
    await db.raw("INSERT INTO documents_search (file_id, name, labels, metadata, body) VALUES (?, ?, ?, ?, '')", [
      fileId,
      text.name,
      text.labels,
      text.metadata,
    ])
  } else {
    await db.raw(
      "INSERT INTO documents_search (rowid, file_id, name, labels, metadata, body) VALUES (?, ?, ?, ?, ?, '')",
      [fileId, fileId, text.name, text.labels, text.metadata]
    )
  }
}

/** The searchable values of one metadata row (JSON by column name); a row that is not JSON gives none. */
function metadataWords(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json)
    if (parsed === null || typeof parsed !== 'object') return []
    return Object.values(parsed as Record<string, unknown>)
      .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      .map(String)
  } catch {
    return []
  }
}
