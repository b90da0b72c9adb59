/**
 * knex resolves a transaction's commit() even when the COMMIT statement fails: the failure reaches only
 * the transaction's `executionPromise` (knex#6141, knex 3.3.0), and Lucid's TransactionClient awaits
 * commit() alone. So a COMMIT lost with its connection (the database restarting, seen in the load test of
 * issue 22) was answered as saved, and `after:commit` hooks ran for work that was rolled back.
 *
 * Installed once at boot: each transaction's commit also awaits that promise, so a failed COMMIT rejects,
 * Lucid rolls back and rethrows, and the caller answers the failure (a 503 when the database is down).
 */

interface KnexTransactor {
  commit(...args: unknown[]): Promise<unknown>
  executionPromise?: Promise<unknown>
}

interface LucidTransactionClient {
  knexClient: KnexTransactor
  commit(): Promise<void>
}

let installed = false

export async function checkCommits(): Promise<void> {
  if (installed) return
  installed = true
  // Not among Lucid's exports: loaded by its path beside the package's entry.
  const entry = import.meta.resolve('@adonisjs/lucid')
  const { TransactionClient } = (await import(new URL('./src/transaction_client/index.js', entry).href)) as {
    TransactionClient: { prototype: LucidTransactionClient }
  }
  const lucidCommit = TransactionClient.prototype.commit
  TransactionClient.prototype.commit = function (this: LucidTransactionClient) {
    const transactor = this.knexClient
    const knexCommit = transactor.commit
    transactor.commit = async (...args: unknown[]) => {
      const value = await knexCommit.apply(transactor, args)
      // Settled by now: knex resolves or rejects it before commit()'s promise resolves.
      await transactor.executionPromise
      return value
    }
    return lucidCommit.call(this)
  }
}
