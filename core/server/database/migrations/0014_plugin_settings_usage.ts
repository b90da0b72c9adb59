import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What the core keeps for plugins (plugin-api services.ts): each plugin's saved settings (merged over
 * its definition's defaults) and its billable uses, one row per use key so a job that runs twice
 * counts once.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('plugin_settings', (table) => {
      table.string('plugin', 40).primary()
      table.text('value').notNullable()
      table.integer('updated_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('usage_events', (table) => {
      table.bigIncrements('id')
      table.string('plugin', 40).notNullable()
      table.string('metric', 100).notNullable()
      table.string('key', 191).notNullable()
      table.bigInteger('amount').notNullable()
      table.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.unique(['plugin', 'metric', 'key'])
      table.index(['plugin', 'metric', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTable('usage_events')
    this.schema.dropTable('plugin_settings')
  }
}
