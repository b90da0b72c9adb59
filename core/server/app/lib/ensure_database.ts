/**
 * MySQL/MariaDB does not create the database on connect; make it (utf8mb4) when it is missing.
 * SQLite needs nothing: the file is created in the data dir on first connect.
 */
export async function ensureDatabase(): Promise<void> {
  if ((process.env.DB_CONNECTION ?? 'sqlite') !== 'mysql') return
  const name = process.env.DB_DATABASE ?? 'tramita'
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`DB_DATABASE "${name}" may hold only letters, digits and _`)
  const { default: mysql } = await import('mysql2/promise') // not loaded on SQLite
  const connection = await mysql.createConnection({
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 3306),
    user: process.env.DB_USER ?? 'root',
    password: process.env.DB_PASSWORD ?? '',
  })
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  } finally {
    await connection.end()
  }
}
