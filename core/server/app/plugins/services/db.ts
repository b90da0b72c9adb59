import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { PluginDb, PluginQuery } from '@tramita/plugin-api'
import { affectedRows } from '#lib/db_result'

/** The core's own tables: a plugin never names one (tests/unit/plugin_db_names.spec.ts keeps this list whole). */
export const CORE_TABLES: ReadonlySet<string> = new Set([
  'activities',
  'adonis_schema',
  'adonis_schema_versions',
  'api_tokens',
  'areas',
  'audit_logs',
  'cases',
  'form_versions',
  'forms',
  'institution',
  'job_effects',
  'job_outbox',
  'login_tickets',
  'password_resets',
  'plugin_settings',
  'rate_limits',
  'recovery_codes',
  'roles',
  'server_keys',
  'sessions',
  'tasks',
  'uploads',
  'usage_events',
  'user_areas',
  'user_roles',
  'users',
])

const TABLE_NAME = /^[a-z][a-z0-9_]{0,59}$/

/** The table prefix of a plugin id (`documents` → `documents_`; dashes become underscores). */
export function tablePrefix(pluginId: string): string {
  return `${pluginId.replace(/-/g, '_')}_`
}

/**
 * The full name of a plugin's table: `folders` → `documents_folders`. A name already carrying the
 * plugin's prefix is taken as is; one carrying another plugin's prefix, a core table's name or
 * anything but lower-case letters, digits and underscores is refused.
 */
export function scopedTableName(pluginId: string, name: string, otherPluginIds: readonly string[]): string {
  const own = tablePrefix(pluginId)
  if (typeof name !== 'string' || !TABLE_NAME.test(name)) {
    throw new Error(`plugin "${pluginId}": invalid table name "${String(name).slice(0, 60)}"`)
  }
  if (CORE_TABLES.has(name)) throw new Error(`plugin "${pluginId}": "${name}" is a core table; use ctx.people`)
  for (const other of otherPluginIds) {
    const prefix = tablePrefix(other)
    if (other !== pluginId && name.startsWith(prefix) && !own.startsWith(prefix)) {
      throw new Error(`plugin "${pluginId}": table "${name}" belongs to plugin "${other}"`)
    }
  }
  return name.startsWith(own) ? name : own + name
}

export function dialectOf(client: Pick<QueryClientContract, 'dialect'>): 'sqlite' | 'mysql' {
  return client.dialect.name === 'mysql' ? 'mysql' : 'sqlite'
}

/** Knex's insert answer as ids: SQLite gives the last id of a batch (ids of one statement are consecutive), MySQL the first. */
export function insertedIds(result: unknown, rows: number, dialect: 'sqlite' | 'mysql'): number[] {
  const first = Number(Array.isArray(result) ? result[0] : result)
  if (!Number.isFinite(first)) return []
  if (dialect === 'mysql' || rows <= 1) return [first]
  return Array.from({ length: rows }, (_, i) => first - rows + 1 + i)
}

type Builder = any
type Table = (name: string) => string

/** Wraps Lucid's select builder in the PluginQuery shape, prefixing every table it is given. */
class ScopedQuery implements PluginQuery {
  constructor(
    private readonly client: QueryClientContract,
    private readonly builder: Builder,
    private readonly table: Table,
    private readonly tableName: string | null
  ) {}

  /** Callbacks get the same wrapper over the nested builder, so sub-queries are prefixed too. */
  private nested(callback: (query: any) => void) {
    const client = this.client
    const table = this.table
    return function (this: Builder, inner: Builder) {
      callback(new ScopedQuery(client, inner ?? this, table, null))
    }
  }

  private static unwrap(value: unknown): unknown {
    return value instanceof ScopedQuery ? value.builder : value
  }

  private chain(apply: (b: Builder) => void): this {
    apply(this.builder)
    return this
  }

  from(name: string) {
    return this.chain((b) => b.from(this.table(name)))
  }
  select(...columns: string[]) {
    return this.chain((b) => b.select(...columns))
  }
  where(...args: any[]) {
    return this.chain((b) => (typeof args[0] === 'function' ? b.where(this.nested(args[0])) : b.where(...args)))
  }
  orWhere(...args: any[]) {
    return this.chain((b) => (typeof args[0] === 'function' ? b.orWhere(this.nested(args[0])) : b.orWhere(...args)))
  }
  whereIn(column: string, values: any) {
    return this.chain((b) => b.whereIn(column, ScopedQuery.unwrap(values)))
  }
  whereNotIn(column: string, values: any) {
    return this.chain((b) => b.whereNotIn(column, ScopedQuery.unwrap(values)))
  }
  whereNull(column: string) {
    return this.chain((b) => b.whereNull(column))
  }
  whereNotNull(column: string) {
    return this.chain((b) => b.whereNotNull(column))
  }
  whereExists(callback: (query: PluginQuery) => void) {
    return this.chain((b) => b.whereExists(this.nested(callback)))
  }
  whereRaw(sql: string, bindings: readonly unknown[] = []) {
    return this.chain((b) => b.whereRaw(sql, [...bindings]))
  }
  orderBy(column: string, direction: 'asc' | 'desc' = 'asc') {
    return this.chain((b) => b.orderBy(column, direction))
  }
  groupBy(...columns: string[]) {
    return this.chain((b) => b.groupBy(...columns))
  }
  limit(count: number) {
    return this.chain((b) => b.limit(count))
  }
  offset(count: number) {
    return this.chain((b) => b.offset(count))
  }
  count(column: string, alias?: string) {
    return this.chain((b) => (alias ? b.count(column, alias) : b.count(column)))
  }
  sum(column: string, alias?: string) {
    return this.chain((b) => (alias ? b.sum(column, alias) : b.sum(column)))
  }
  max(column: string, alias?: string) {
    return this.chain((b) => (alias ? b.max(column, alias) : b.max(column)))
  }
  forUpdate() {
    // SQLite has no row locks (its writer lock serialises transactions); knex warns if asked.
    return this.chain((b) => (dialectOf(this.client) === 'mysql' ? b.forUpdate() : b))
  }
  async first() {
    return ((await this.builder.first()) ?? null) as any
  }
  async insert(values: Record<string, unknown> | Record<string, unknown>[]): Promise<number[]> {
    if (!this.tableName) throw new Error('insert needs db.table(name)')
    const rows = Array.isArray(values) ? values : [values]
    if (rows.length === 0) return []
    const result = await this.client.insertQuery().table(this.tableName).insert(rows)
    return insertedIds(result, rows.length, dialectOf(this.client))
  }
  async update(values: Record<string, unknown>): Promise<number> {
    return affectedRows(await this.builder.update(values))
  }
  async increment(column: string, amount = 1): Promise<number> {
    return affectedRows(await this.builder.increment(column, amount))
  }
  async delete(): Promise<number> {
    return affectedRows(await this.builder.delete())
  }
  then<A = any[], B = never>(
    onFulfilled?: ((rows: any[]) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null
  ): PromiseLike<A | B> {
    return (this.builder as PromiseLike<any[]>).then(onFulfilled, onRejected)
  }
}

/** The plugin's database: its own tables on the core's connection, or inside one transaction. */
export function pluginDb(
  pluginId: string,
  otherPluginIds: () => readonly string[],
  client: QueryClientContract = db.connection()
): PluginDb {
  const table = (name: string) => scopedTableName(pluginId, name, otherPluginIds())
  return {
    dialect: dialectOf(client),
    table(name) {
      const full = table(name)
      return new ScopedQuery(client, client.from(full), table, full)
    },
    transaction(work) {
      // Commits when `work` resolves, rolls back when it throws; inside a transaction, a savepoint.
      return client.transaction((trx) => work(pluginDb(pluginId, otherPluginIds, trx)))
    },
    async raw(sql, bindings = []) {
      const result = await client.rawQuery(sql, [...bindings] as any[])
      // mysql2 answers [rows, fields] (rows a header object for writes); better-sqlite3 the rows.
      const rows = dialectOf(client) === 'mysql' && Array.isArray(result) ? result[0] : result
      return (Array.isArray(rows) ? rows.map((row) => ({ ...row })) : []) as any[]
    },
  }
}
