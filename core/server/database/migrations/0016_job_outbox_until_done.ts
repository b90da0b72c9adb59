import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * An outbox row stays until its job has ended (services/job_outbox.ts): `queued_at` says it reached the
 * queue, and the row is queued again by its key while the queue may have lost it (a Redis restarted
 * without its data). The key is looked up when a job ends.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('job_outbox', (table) => {
      table.timestamp('queued_at').nullable()
      table.index(['idempotency_key'])
    })
  }

  async down() {
    this.schema.alterTable('job_outbox', (table) => {
      table.dropIndex(['idempotency_key'])
      table.dropColumn('queued_at')
    })
  }
}
