import { BaseSchema } from '@adonisjs/lucid/schema'

/** The institution running this Tramita: what GET /data/config/infocompany answers. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('institution', (table) => {
      table.increments('id')
      table.string('name', 200).notNullable()
      table.string('logo', 500).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('institution')
  }
}
