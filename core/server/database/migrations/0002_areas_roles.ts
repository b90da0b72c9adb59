import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('areas', (table) => {
      table.increments('id')
      table.string('name', 150).notNullable().unique()
      table.string('color', 20).notNullable().defaultTo('#1C1066')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('roles', (table) => {
      table.increments('id')
      table.string('name', 100).notNullable().unique()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('roles')
    this.schema.dropTable('areas')
  }
}
