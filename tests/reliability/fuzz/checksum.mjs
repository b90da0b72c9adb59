/**
 * A fingerprint of every table's rows, to tell whether a batch of requests changed the database.
 * SQLite: a read-only connection to the server's file (WAL: it sees what was committed) hashing each
 * table's rows; MariaDB: one CHECKSUM TABLE over all tables. Both take a few milliseconds on the
 * fuzzer's small database, so they can surround every batch.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { ROOT } from './server.mjs'

/**
 * Tables a refused request may write on purpose: the sign-in and rate counters, the session's
 * last-seen time, the audit trail (which records refusals), queued jobs' bookkeeping.
 */
export const VOLATILE = new Set(['rate_limits', 'sessions', 'audit_logs', 'adonis_schema', 'adonis_schema_versions'])

/**
 * Tables the server's own relay empties in the background (job_outbox: staged jobs, deleted once
 * queued): their rows come and go by themselves, so their fingerprint is how many rows were ever
 * inserted (the table's auto-increment counter), which only a request can move.
 */
export const DRAINED = new Set(['job_outbox'])

export async function checksummer(server) {
  if (server.database === 'sqlite') {
    const { default: Database } = await import(join(ROOT, 'node_modules', 'better-sqlite3', 'lib', 'index.js'))
    const db = new Database(server.sqliteFile, { readonly: true, fileMustExist: true })
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => r.name)
      .filter((t) => !VOLATILE.has(t))
    const statements = tables.map((t) => [
      t,
      DRAINED.has(t)
        ? db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = '${t}'`).raw(true)
        : db.prepare(`SELECT * FROM "${t}"`).raw(true),
    ])
    return {
      tables,
      async sum() {
        const out = {}
        for (const [table, statement] of statements) {
          const hash = createHash('sha1')
          for (const row of statement.iterate()) hash.update(JSON.stringify(row, bigintSafe))
          out[table] = hash.digest('base64')
        }
        return out
      },
      async close() {
        db.close()
      },
    }
  }
  const conn = await server.mysqlConnection()
  const [rows] = await conn.query(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name"
  )
  const tables = rows.map((r) => r.name).filter((t) => !VOLATILE.has(t))
  const sql = `CHECKSUM TABLE ${tables
    .filter((t) => !DRAINED.has(t))
    .map((t) => `\`${t}\``)
    .join(', ')}`
  const counters = `SELECT table_name AS name, auto_increment AS next FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN (${[...DRAINED].map((t) => `'${t}'`).join(', ')})`
  return {
    tables,
    async sum() {
      const [result] = await conn.query(sql)
      const [next] = await conn.query(counters)
      return Object.fromEntries([
        ...result.map((r) => [r.Table.split('.').pop(), String(r.Checksum)]),
        ...next.map((r) => [r.name, String(r.next)]),
      ])
    },
    async close() {
      await conn.end()
    },
  }
}

function bigintSafe(_key, value) {
  if (typeof value === 'bigint') return value.toString()
  if (Buffer.isBuffer(value)) return value.toString('base64')
  return value
}

/** The tables whose fingerprint differs. */
export function changedTables(before, after) {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t])
}
