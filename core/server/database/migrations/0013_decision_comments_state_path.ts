import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Issue 18, what a case's log keeps:
 * - activities.comment: the comment written with a decision (at most DECISION_COMMENT_MAX characters,
 *   checked by the engine), shown with the decision in the consultation.
 * - activities.state: the id of the state a state_changed entry entered, so the consultation draws the
 *   path the case took by id (labels may repeat or be renamed in a later version).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('activities', (table) => {
      table.string('comment', 1000).nullable()
      table.string('state', 40).nullable()
    })
  }

  async down() {
    this.schema.alterTable('activities', (table) => {
      table.dropColumn('state')
      table.dropColumn('comment')
    })
  }
}
