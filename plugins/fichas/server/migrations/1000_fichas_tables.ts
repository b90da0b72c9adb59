import { BaseSchema } from '@adonisjs/lucid/schema'

/** Tables the fichas plugin owns (prefixed with its id). Its features arrive with their issue. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('fichas_fichas', (table) => {
      table.increments('id')
      table.string('name', 200).notNullable()
      table.string('code', 60).notNullable().unique()
      table.string('group_name', 100).nullable()
      table.string('period', 60).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('fichas_fichas')
  }
}
