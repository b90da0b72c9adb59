/**
 * Limits on every wait for MariaDB. mysql2 and knex wait without end for an answer on an open connection:
 * a frozen server or a network that drops packets held a request, and the connection and row locks its
 * transaction had, for as long as TCP kept the connection open (minutes to hours).
 * - A statement's answer: DB_TIMEOUT_MS (30 s by default). Past it the connection is destroyed, since
 *   mysql2 would send the next statement on it only after the unanswered one, and the caller gets a
 *   database-down error (a 503 from the exception handler). The server rolls back the transaction of a
 *   connection once it sees the connection gone.
 * - A connection from the pool: the same limit; a new connection's handshake: at most 10 s of it.
 * Migrations run without the statement limit (withoutStatementLimit): an ALTER of a big table may take
 * minutes, and a migration cut off halfway keeps the statements before it (MariaDB commits each DDL).
 */

import { AsyncLocalStorage } from 'node:async_hooks'

/** mysql2's code for a statement that passed its `timeout`. */
export const STATEMENT_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT'

/** DB_TIMEOUT_MS when it is not set (start/env.ts checks it when it is). */
export const DB_TIMEOUT_DEFAULT_MS = 30_000

/**
 * The mysql2 connection options and the pool settings (knex's tarn) that bound every wait for MariaDB at
 * `limitMs`: config/database.ts adds them to its mysql connection.
 */
export function mysqlLimits(limitMs: number) {
  return {
    // mysql2's option (knex passes the connection's options on), unknown to Lucid's types.
    connection: { connectTimeout: Math.min(10_000, limitMs) },
    pool: {
      acquireTimeoutMillis: limitMs,
      afterCreate: (connection: Mysql2Connection, done: (error: Error | null, connection: unknown) => void) => {
        limitStatements(connection, limitMs)
        done(null, connection)
      },
    },
  }
}

/** Marks the statements of work run without the limit (its async context only, not a request beside it). */
const unlimited = new AsyncLocalStorage<true>()

/** Runs `work` (migrations) with no limit on its statements; awaited inside, so a lazy query runs there too. */
export function withoutStatementLimit<T>(work: () => PromiseLike<T>): Promise<T> {
  return unlimited.run(true, async () => await work())
}

type Callback = (error: (Error & { code?: string }) | null, ...rest: unknown[]) => void
interface Mysql2Connection {
  query: (options: unknown, values?: unknown, callback?: Callback) => unknown
  destroy: () => void
}

/**
 * The pool's hook for each new mysql2 connection: every statement knex sends on it (`query(options,
 * bindings, callback)`) gets the limit, and a statement that passes it ends the connection.
 */
export function limitStatements(connection: Mysql2Connection, limitMs: number): void {
  const query = connection.query.bind(connection)
  connection.query = (options, values, callback) => {
    if (unlimited.getStore() || typeof callback !== 'function' || typeof options !== 'object' || options === null) {
      return query(options, values, callback)
    }
    return query({ timeout: limitMs, ...options }, values, (error, ...rest) => {
      if (error?.code === STATEMENT_TIMEOUT_CODE) {
        error.message = `the database did not answer within ${limitMs} ms`
        // As mysql2 marks an error that ended its connection: the exception handler answers 503.
        Object.assign(error, { fatal: true })
        connection.destroy()
      }
      callback(error, ...rest)
    })
  }
}
