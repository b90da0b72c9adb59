import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import mysql from 'mysql2/promise'
import { runCli } from '#tests/helpers/processes'

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
    name,
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

type ChildDatabase = ReturnType<typeof childDatabase>

/**
 * The database `tramita migrate` and `seed --demo` make, made once per test process and copied for each
 * group that starts from it: each CLI run boots the app, and migrating and seeding took about 20 s a group.
 */
let template: Promise<ChildDatabase> | null = null

function seededTemplate(): Promise<ChildDatabase> {
  template ??= (async () => {
    const db = childDatabase('cli-template')
    await db.drop()
    for (const args of [['migrate'], ['seed', '--demo']]) {
      const run = await runCli(args, db.env)
      if (run.code !== 0) throw new Error(`tramita ${args.join(' ')} failed:\n${run.output}`)
    }
    return db
  })()
  return template
}

/**
 * Makes `db` what `migrate` then `seed --demo` leave: a copy of the process's template (the SQLite data dir
 * copied; on MariaDB each table created as the template's SHOW CREATE TABLE says, foreign keys included,
 * and its rows copied).
 */
export async function seedChildDatabase(db: ChildDatabase): Promise<void> {
  const from = await seededTemplate()
  if (process.env.DB_CONNECTION !== 'mysql') {
    cpSync(from.dataDir, db.dataDir, { recursive: true })
    return
  }
  const conn = await mysql.createConnection({
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 3306),
    user: process.env.DB_USER ?? 'root',
    password: process.env.DB_PASSWORD ?? '',
    multipleStatements: false,
  })
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${db.name}\``)
    await conn.query(`CREATE DATABASE \`${db.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
    await conn.query(`USE \`${db.name}\``)
    await conn.query('SET FOREIGN_KEY_CHECKS = 0')
    const [tables] = (await conn.query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
      [from.name]
    )) as unknown as [{ name: string }[]]
    for (const { name } of tables) {
      const [[created]] = (await conn.query(`SHOW CREATE TABLE \`${from.name}\`.\`${name}\``)) as unknown as [
        Record<string, string>[],
      ]
      await conn.query(created!['Create Table']!)
      // Generated columns are computed again, never copied.
      const [columns] = (await conn.query(
        `SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position`,
        [from.name, name]
      )) as unknown as [{ name: string }[]]
      const list = columns.map((c) => `\`${c.name}\``).join(', ')
      await conn.query(`INSERT INTO \`${name}\` (${list}) SELECT ${list} FROM \`${from.name}\`.\`${name}\``)
    }
  } finally {
    await conn.end()
  }
}
