import { BaseSchema } from '@adonisjs/lucid/schema'

/** Tables the documents plugin owns (prefixed with its id). Its features arrive with their issue. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('documents_folders', (table) => {
      table.increments('id')
      table.integer('parent_id').unsigned().nullable().references('id').inTable('documents_folders').onDelete('CASCADE')
      table.string('type', 20).notNullable().defaultTo('normal') // normal | synchronized
      table.string('name', 255).notNullable()
      table.string('path', 1000).nullable() // synchronized folders: the path on the agent
      table.integer('agent_id').unsigned().nullable()
      table.integer('creator_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('documents_folders')
  }
}
