import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What `tramita documents:import` has imported: one row per source file (its path relative to the
 * imported folder, size, modification time and SHA-256) and the library file it became, so a rerun,
 * or a run after one was killed midway, imports each file once. `key_hash` is the SHA-256 of owner,
 * destination folder and relative path (a unique index on the path itself would exceed MariaDB's key size).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('documents_imports', (table) => {
      table.increments('id')
      table.string('key_hash', 64).notNullable().unique()
      table.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table
        .integer('target_folder_id')
        .unsigned()
        .nullable()
        .references('id')
        .inTable('documents_folders')
        .onDelete('CASCADE')
      table.string('relative_path', 4000).notNullable()
      table.bigInteger('size').unsigned().notNullable()
      table.bigInteger('mtime_ms').notNullable()
      table.string('sha256', 64).notNullable()
      // Deleting the file for good forgets its import: a rerun brings it back.
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.timestamp('imported_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTableIfExists('documents_imports')
  }
}
