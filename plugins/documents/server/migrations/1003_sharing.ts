import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Sharing (issue 19 item 5): an e-mail share remembers the public link it mailed (revoking one revokes
 * the other); an access that opened a link carries the short-lived grant that serves the file (only its
 * hash), and wrong passwords are counted per address across links, so that address gets an index.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('documents_shares', (table) => {
      table.integer('link_id').unsigned().nullable()
    })
    this.schema.alterTable('documents_link_accesses', (table) => {
      table.string('grant_hash', 64).nullable().unique()
      table.timestamp('grant_expires_at').nullable()
      table.index(['ip', 'created_at'])
    })
  }

  async down() {
    this.schema.alterTable('documents_link_accesses', (table) => {
      table.dropIndex(['ip', 'created_at'])
      table.dropUnique(['grant_hash'])
      table.dropColumn('grant_hash')
      table.dropColumn('grant_expires_at')
    })
    this.schema.alterTable('documents_shares', (table) => {
      table.dropColumn('link_id')
    })
  }
}
