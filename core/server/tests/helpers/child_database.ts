import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import mysql from 'mysql2/promise'

/**
 * A separate database for processes a test starts (CLI, servers, workers), on the same engine as the
 * suite: a fresh SQLite data dir, or a fresh MariaDB database that `drop()` removes.
 */
export function childDatabase(label: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `tramita-${label}-`))
  const isMysql = process.env.DB_CONNECTION === 'mysql'
  const name = `${process.env.DB_DATABASE ?? 'tramita'}_${label.replace(/\W/g, '_')}`.slice(0, 60)
  const env: Record<string, string> = { TRAMITA_DATA_DIR: dataDir, ...(isMysql ? { DB_DATABASE: name } : {}) }
  const connect = () =>
    mysql.createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER ?? 'root',
      password: process.env.DB_PASSWORD ?? '',
    })

  return {
    env,
    dataDir,
    async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
      if (!isMysql) {
        const db = new Database(join(dataDir, 'tramita.sqlite3'))
        try {
          const statement = db.prepare(sql)
          return (statement.reader ? statement.all(...params) : [statement.run(...params)]) as T[]
        } finally {
          db.close()
        }
      }
      const conn = await connect()
      try {
        await conn.query(`USE \`${name}\``)
        const [rows] = await conn.query(sql, params)
        return rows as T[]
      } finally {
        await conn.end()
      }
    },
    async drop() {
      if (!isMysql) return
      const conn = await connect()
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``)
      await conn.end()
    },
  }
}
