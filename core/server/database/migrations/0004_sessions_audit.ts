import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    // Opaque session tokens live only as SHA-256 hashes: a leaked table does not leak sessions.
    this.schema.createTable('sessions', (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('ip', 64).nullable()
      table.string('user_agent', 300).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('last_seen_at').notNullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('revoked_at').nullable()
      table.index(['user_id'])
    })
    this.schema.createTable('audit_logs', (table) => {
      table.bigIncrements('id')
      table.integer('actor_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.string('action', 100).notNullable()
      table.string('subject_type', 60).nullable()
      table.string('subject_id', 60).nullable()
      table.json('data').nullable()
      table.string('ip', 64).nullable()
      table.timestamp('created_at').notNullable()
      table.index(['action', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTable('audit_logs')
    this.schema.dropTable('sessions')
  }
}
