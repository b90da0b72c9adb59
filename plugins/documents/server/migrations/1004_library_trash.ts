import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The library (issue 19): an item trashed with its folder remembers that folder (`trashed_with`), so
 * the trash lists only what was trashed itself and restoring a folder brings back what went with it,
 * not what was trashed on its own before. `documents_owner_locks` has one row per owner, locked while
 * an upload checks the quota and picks a free name (two uploads of one owner never both pass).
 */
export default class extends BaseSchema {
  async up() {
    for (const name of ['documents_files', 'documents_folders']) {
      this.schema.alterTable(name, (table) => {
        table.integer('trashed_with').unsigned().nullable().index()
      })
    }
    this.schema.createTable('documents_owner_locks', (table) => {
      table.integer('user_id').unsigned().primary()
    })
  }

  async down() {
    this.schema.dropTableIfExists('documents_owner_locks')
    for (const name of ['documents_files', 'documents_folders']) {
      this.schema.alterTable(name, (table) => {
        table.dropIndex(['trashed_with'])
        table.dropColumn('trashed_with')
      })
    }
  }
}
