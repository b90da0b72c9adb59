import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The inbox: when a role or area task was claimed (shown beside who claimed it), and the index that
 * serves "cases I started" newest-first without sorting every case of the user.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('tasks', (table) => {
      table.timestamp('claimed_at').nullable()
    })
    this.schema.alterTable('cases', (table) => {
      table.index(['created_by', 'updated_at'], 'cases_created_by_updated_at_index')
    })
  }

  async down() {
    this.schema.alterTable('cases', (table) => {
      table.dropIndex(['created_by', 'updated_at'], 'cases_created_by_updated_at_index')
    })
    this.schema.alterTable('tasks', (table) => {
      table.dropColumn('claimed_at')
    })
  }
}
