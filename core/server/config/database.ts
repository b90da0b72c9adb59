import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'
import { dataPath } from '#lib/paths'
import { migrationPaths } from '#plugins/enabled'
import { DB_TIMEOUT_DEFAULT_MS, mysqlLimits } from '#lib/db_timeouts'

/**
 * SQLite in the data dir by default; MySQL/MariaDB (utf8mb4) when DB_CONNECTION=mysql.
 * Migration paths are the core's plus each enabled plugin's, so `tramita migrate` runs them all.
 */
const migrations = { naturalSort: true, paths: ['./database/migrations', ...(await migrationPaths())] }
/** Every wait for MariaDB is bounded (lib/db_timeouts.ts); SQLite's is its busy timeout. */
const limits = mysqlLimits(env.get('DB_TIMEOUT_MS', DB_TIMEOUT_DEFAULT_MS))

export default defineConfig({
  connection: env.get('DB_CONNECTION', 'sqlite'),
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: dataPath('tramita.sqlite3') },
      useNullAsDefault: true,
      migrations,
      pool: {
        afterCreate: (conn: any, done: (err: Error | null, conn: unknown) => void) => {
          conn.pragma('journal_mode = WAL')
          conn.pragma('synchronous = NORMAL')
          conn.pragma('foreign_keys = ON')
          conn.pragma('busy_timeout = 5000')
          done(null, conn)
        },
      },
    },
    mysql: {
      client: 'mysql2',
      connection: {
        host: env.get('DB_HOST', '127.0.0.1'),
        port: env.get('DB_PORT', 3306),
        user: env.get('DB_USER', 'root'),
        password: env.get('DB_PASSWORD', ''),
        database: env.get('DB_DATABASE', 'tramita'),
        charset: 'utf8mb4',
        ...limits.connection,
      },
      pool: limits.pool,
      migrations,
    },
  },
})
