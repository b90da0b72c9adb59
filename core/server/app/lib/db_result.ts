/**
 * Rows an update or delete touched. Knex answers a number on MySQL and SQLite, but some paths give
 * `[count]`; this reads both.
 */
export function affectedRows(result: unknown): number {
  return Number((Array.isArray(result) ? result[0] : result) ?? 0)
}

/** The rows of a raw select: mysql2 answers `[rows, fields]`, better-sqlite3 the rows themselves. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result
  return rows as Record<string, unknown>[]
}
