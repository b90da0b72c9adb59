import { BaseSchema } from '@adonisjs/lucid/schema'

/** Tables the devices plugin owns (prefixed with its id). Its features arrive with their issue. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('devices_agents', (table) => {
      table.increments('id')
      table.string('name', 150).notNullable()
      table.string('status', 20).notNullable().defaultTo('WAITING') // ACTIVE | INACTIVE | WAITING | CANCELLED | NO LICENSE
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('devices_machines', (table) => {
      table.increments('id')
      table.integer('agent_id').unsigned().nullable().references('id').inTable('devices_agents').onDelete('SET NULL')
      table.string('name', 150).notNullable()
      table.string('brand', 100).nullable()
      table.string('model', 100).nullable()
      table.string('location', 200).nullable()
      table.string('ip', 64).nullable()
      table.string('token', 64).notNullable().unique()
      table.string('availability', 30).notNullable().defaultTo('not available')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('devices_machines')
    this.schema.dropTable('devices_agents')
  }
}
