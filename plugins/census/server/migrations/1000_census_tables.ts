import { BaseSchema } from '@adonisjs/lucid/schema'

/** Tables the census plugin owns (prefixed with its id). Its features arrive with their issue. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('census_censuses', (table) => {
      table.increments('id')
      table.string('name', 200).notNullable()
      table.boolean('active').notNullable().defaultTo(true)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('census_censuses')
  }
}
