import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Synchronized folders (spec 001 §2: a folder bound to a path on a device agent). Each file as both
 * sides had it at its last sync (the three-way comparison's base): its path under the folder, the
 * document and version it is, and the agent's size and modification time. `file_id` null: an agent's
 * file the library refused (not tried again until it changes). The folder keeps its last sync, its
 * error, its count of runs, and a lease so one run at a time works on it (a run asked meanwhile is
 * remembered, and the holder runs once more); its activity (conflicts, refusals) is a log.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('documents_sync_entries', (table) => {
      table.increments('id')
      table
        .integer('folder_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_folders')
        .onDelete('CASCADE')
      // The path is up to 1000 characters: the unique key is on its hash (MariaDB's index length).
      table.string('path_hash', 64).notNullable()
      table.text('rel_path').notNullable()
      table.integer('file_id').unsigned().nullable()
      table.integer('version').unsigned().nullable()
      table.bigInteger('agent_size').notNullable()
      table.bigInteger('agent_mtime_ms').notNullable()
      table.timestamp('updated_at').notNullable()
      table.unique(['folder_id', 'path_hash'])
    })
    this.schema.createTable('documents_sync_events', (table) => {
      table.increments('id')
      table
        .integer('folder_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_folders')
        .onDelete('CASCADE')
      table.string('kind', 20).notNullable() // conflict | refused | error
      table.text('rel_path').nullable()
      table.string('detail', 255).nullable()
      table.integer('file_id').unsigned().nullable()
      table.timestamp('created_at').notNullable()
      table.index(['folder_id', 'created_at'])
    })
    this.schema.alterTable('documents_folders', (table) => {
      table.timestamp('synced_at').nullable()
      table.string('sync_error', 20).nullable()
      table.timestamp('sync_lease_until').nullable()
      // A run asked while another held the lease: the holder runs again (one request is never lost).
      table.timestamp('sync_requested_at').nullable()
      table.integer('sync_runs').unsigned().notNullable().defaultTo(0)
      table.index(['type'])
    })
  }

  async down() {
    this.schema.alterTable('documents_folders', (table) => {
      table.dropIndex(['type'])
      table.dropColumn('synced_at')
      table.dropColumn('sync_error')
      table.dropColumn('sync_lease_until')
      table.dropColumn('sync_requested_at')
      table.dropColumn('sync_runs')
    })
    this.schema.dropTable('documents_sync_events')
    this.schema.dropTable('documents_sync_entries')
  }
}
