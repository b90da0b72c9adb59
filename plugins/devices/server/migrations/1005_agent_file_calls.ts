import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * File calls to agents (devices.files: synchronized folders). A call is a row first and a message
 * after; the agent's answer (over HTTP, on any node) lands on the row, where the caller (on any node)
 * reads it. A write's bytes and a read's bytes pass through storage under `storage_key`.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('devices_file_calls', (table) => {
      table.string('id', 36).primary()
      table.integer('agent_id').unsigned().notNullable().references('id').inTable('devices_agents').onDelete('CASCADE')
      table.string('op', 10).notNullable()
      // sent → done (answer holds the result or its error); the caller deletes the row when it has read it.
      table.string('status', 10).notNullable()
      table.text('answer', 'longtext').nullable()
      table.string('storage_key', 200).nullable()
      table.bigInteger('max_bytes').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['created_at'])
    })
  }

  async down() {
    this.schema.dropTable('devices_file_calls')
  }
}
