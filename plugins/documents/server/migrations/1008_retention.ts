import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Retention (issue 20): schedules (TRD: code, serie, subserie, document type, years in the active and
 * the central archive, final disposition) with their labels; a schedule of its own on a folder, an index
 * or a file; a file's archived state (read-only); and the confirmations mailed, one row per code (only
 * its hash). `open_file_id` is the file while its code is open (unused, not expired), else null: a unique
 * key, so two runs of the daily job at once never mail one document twice.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('documents_retention_schedules', (table) => {
      table.increments('id')
      table.string('code', 40).notNullable().unique()
      table.string('serie', 255).notNullable()
      table.string('subserie', 255).notNullable().defaultTo('')
      table.string('doc_type', 255).notNullable().defaultTo('')
      table.integer('active_years').unsigned().notNullable()
      table.integer('central_years').unsigned().notNullable()
      table.string('disposition', 10).notNullable() // delete | archive
      table.integer('responsible_id').unsigned().nullable() // a user; null: each document's owner
      table.integer('created_by').unsigned().nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('documents_retention_labels', (table) => {
      table.increments('id')
      table
        .integer('schedule_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_retention_schedules')
        .onDelete('CASCADE')
      table.string('name', 60).notNullable()
      table.string('color', 7).notNullable()
      table.unique(['schedule_id', 'name'])
    })
    // A schedule of its own (no foreign key: deleting a schedule clears these in its transaction).
    for (const name of ['documents_folders', 'documents_files', 'documents_indexes']) {
      this.schema.alterTable(name, (table) => {
        table.integer('retention_schedule_id').unsigned().nullable().index()
      })
    }
    this.schema.alterTable('documents_files', (table) => {
      table.timestamp('archived_at').nullable().index()
      table.integer('archived_by').unsigned().nullable()
    })
    this.schema.createTable('documents_retention_requests', (table) => {
      table.increments('id')
      table.integer('file_id').unsigned().nullable().references('id').inTable('documents_files').onDelete('SET NULL')
      table.integer('open_file_id').unsigned().nullable().unique()
      table.integer('user_id').unsigned().notNullable()
      table.integer('schedule_id').unsigned().nullable()
      // The schedule as it was when mailed (code, serie, subserie, doc_type, disposition, labels): JSON.
      table.text('schedule').notNullable()
      table.string('file_name', 255).notNullable()
      table.string('code_hash', 64).notNullable().unique()
      table.timestamp('expires_at').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('mailed_at').nullable()
      table.timestamp('used_at').nullable()
      table.string('outcome', 10).nullable() // delete | archive
      table.string('used_ip', 64).nullable()
      table.index(['file_id'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('documents_retention_requests')
    this.schema.alterTable('documents_files', (table) => {
      table.dropIndex(['archived_at'])
      table.dropColumn('archived_at')
      table.dropColumn('archived_by')
    })
    for (const name of ['documents_folders', 'documents_files', 'documents_indexes']) {
      this.schema.alterTable(name, (table) => {
        table.dropIndex(['retention_schedule_id'])
        table.dropColumn('retention_schedule_id')
      })
    }
    this.schema.dropTableIfExists('documents_retention_labels')
    this.schema.dropTableIfExists('documents_retention_schedules')
  }
}
