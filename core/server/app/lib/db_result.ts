/**
 * Rows an update or delete touched. Knex answers a number on MySQL and SQLite, but some paths give
 * `[count]`; this reads both.
 */
export function affectedRows(result: unknown): number {
  return Number((Array.isArray(result) ? result[0] : result) ?? 0)
}
