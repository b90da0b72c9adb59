import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Integrity of a case's values and of its approvals (issue 17):
 * - cases.version counts the writes of a case; a save names the version it was based on and is
 *   refused when another save got there first (no silent overwrite).
 * - tasks.four_eyes and tasks.assigned_by: whether the step refuses its doer being the case's starter
 *   or the person whose save assigned it (the previous step's doer), taken from the step when assigned.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('cases', (table) => {
      table.integer('version').unsigned().notNullable().defaultTo(0)
    })
    this.schema.alterTable('tasks', (table) => {
      table.boolean('four_eyes').notNullable().defaultTo(false)
      table.integer('assigned_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
    })
  }

  async down() {
    this.schema.alterTable('tasks', (table) => {
      table.dropForeign(['assigned_by'])
      table.dropColumn('assigned_by')
      table.dropColumn('four_eyes')
    })
    this.schema.alterTable('cases', (table) => {
      table.dropColumn('version')
    })
  }
}
