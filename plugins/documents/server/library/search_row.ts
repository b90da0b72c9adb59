import type { PluginDb } from '@tramita/plugin-api'
import { writeSearchRow } from '../search/index_row.js'

/**
 * Keeps a file's `documents_search` row in step with its name, labels and index values (the search
 * area's writeSearchRow: one writer of the row; the page text is the OCR job's and is kept). A file gone
 * or in the trash has no row.
 */
export async function indexFile(db: PluginDb, fileId: number): Promise<void> {
  await writeSearchRow(db, fileId)
}

export async function unindexFile(db: PluginDb, fileId: number): Promise<void> {
  await db.raw(`DELETE FROM documents_search WHERE ${db.dialect === 'mysql' ? 'file_id' : 'rowid'} = ?`, [fileId])
}
