import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A job's effect (a mail) is claimed before it happens (services/job_effects.ts): `claim` names the run
 * that holds it until `claimed_until`. A row whose claimed_until is null records an effect done (the
 * rows written before this migration included).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('job_effects', (table) => {
      table.string('claim', 32).nullable()
      table.timestamp('claimed_until').nullable()
    })
  }

  async down() {
    this.schema.alterTable('job_effects', (table) => {
      table.dropColumn('claimed_until')
      table.dropColumn('claim')
    })
  }
}
