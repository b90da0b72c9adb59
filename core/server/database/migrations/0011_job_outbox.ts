import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Jobs a save queues are written here in the save's own transaction (`job_outbox`); a relay moves
 * them to the queue and deletes them, so a commit never waits on Redis and no committed job is lost
 * while Redis is away. `job_effects` records an effect a job has had (a mail sent), by key, so a
 * job run again does not repeat it.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('job_outbox', (table) => {
      table.increments('id')
      table.string('job_name', 200).notNullable()
      table.text('payload').notNullable()
      // The queue's jobId: a row moved twice (a relay that died before deleting it) runs once.
      table.string('idempotency_key', 200).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('attempted_at').nullable()
      table.integer('attempts').unsigned().notNullable().defaultTo(0)
      // A relay claims a row until then (a conditional update), so several nodes never move it at once.
      table.timestamp('claimed_until').nullable().index()
      table.string('last_error', 500).nullable()
    })
    this.schema.createTable('job_effects', (table) => {
      table.string('effect_key', 200).primary()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('job_effects')
    this.schema.dropTable('job_outbox')
  }
}
