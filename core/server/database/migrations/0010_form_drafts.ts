import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The designer's drafts: a form's unpublished `form_versions` row is rewritten as it is designed,
 * so it records when and by whom it last changed. Published rows keep these from their publication.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('form_versions', (table) => {
      table.timestamp('updated_at').nullable()
      table.integer('updated_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
    })
  }

  async down() {
    this.schema.alterTable('form_versions', (table) => {
      table.dropForeign(['updated_by'])
      table.dropColumn('updated_by')
      table.dropColumn('updated_at')
    })
  }
}
