import type { PluginDb } from '@tramita/plugin-api'
import { indexText } from '../search/text.js'

/**
 * Keeps a file's `documents_search` row in step with its name and labels (the search area reads it;
 * metadata and page text are other writers' and are kept). A file gone or in the trash has no row.
 * On SQLite the FTS5 rowid is the file id, so the row is found without a scan.
 */
export async function indexFile(db: PluginDb, fileId: number): Promise<void> {
  const file = await db.table('files').select('id', 'name', 'trashed_at').where('id', fileId).first()
  if (!file || file.trashed_at !== null) {
    await unindexFile(db, fileId)
    return
  }
  const labels = await db
    .table('labels')
    .select('name')
    .whereIn('id', db.table('file_labels').select('label_id').where('file_id', fileId))
    .orderBy('name')
  // Written as the search area reads it: accents folded, CJK as bigrams (search/text.ts).
  const name = indexText(file.name)
  const labelText = indexText(labels.map((l: { name: string }) => l.name).join(' '))
  const mysql = db.dialect === 'mysql'
  const where = mysql ? 'file_id = ?' : 'rowid = ?'
  const existing = await db.raw(`SELECT file_id FROM documents_search WHERE ${where}`, [fileId])
  if (existing.length) {
    await db.raw(`UPDATE documents_search SET name = ?, labels = ? WHERE ${where}`, [name, labelText, fileId])
  } else if (mysql) {
    await db.raw("INSERT INTO documents_search (file_id, name, labels, metadata, body) VALUES (?, ?, ?, '', '')", [
      fileId,
      name,
      labelText,
    ])
  } else {
    await db.raw(
      "INSERT INTO documents_search (rowid, file_id, name, labels, metadata, body) VALUES (?, ?, ?, ?, '', '')",
      [fileId, fileId, name, labelText]
    )
  }
}

export async function unindexFile(db: PluginDb, fileId: number): Promise<void> {
  await db.raw(`DELETE FROM documents_search WHERE ${db.dialect === 'mysql' ? 'file_id' : 'rowid'} = ?`, [fileId])
}
