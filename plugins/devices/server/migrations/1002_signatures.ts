import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Signature requests (spec 000 §7 signing flow): a token per request, only its hash kept, bound to the
 * person who opened it and the form field its picture is staged for, expiring, used once. Agents say
 * whether they drive a signing pad (`can_sign`: started with a sign command).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('devices_signatures', (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('user_id').unsigned().notNullable()
      table.string('form_key', 64).notNullable()
      table.string('field', 150).notNullable()
      // The machine whose agent's pad was asked to sign (null: an external signing app, signpro mode).
      table
        .integer('machine_id')
        .unsigned()
        .nullable()
        .references('id')
        .inTable('devices_machines')
        .onDelete('SET NULL')
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.string('path', 200).nullable()
      table.timestamp('created_at').notNullable()
      table.index(['user_id', 'created_at'])
      table.index(['expires_at'])
    })
    this.schema.alterTable('devices_agents', (table) => {
      table.boolean('can_sign').notNullable().defaultTo(false)
    })
  }

  async down() {
    this.schema.alterTable('devices_agents', (table) => {
      table.dropColumn('can_sign')
    })
    this.schema.dropTable('devices_signatures')
  }
}
