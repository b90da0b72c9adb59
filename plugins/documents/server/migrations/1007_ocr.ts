import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * OCR (issue 20). A run OCRs one version of a file in a mode; each page's result is a row written as
 * the page finishes, so a run that is retried (a worker died, the job ran twice) never OCRs a page
 * twice. The searchable PDF a finished run makes is kept beside the version it was made from.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('documents_ocr_runs', (table) => {
      table.increments('id')
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.integer('version').unsigned().notNullable()
      table.string('mode', 10).notNullable() // skip | redo | force
      table.string('state', 12).notNullable() // queued | running | done | failed
      table.integer('pages').unsigned().nullable()
      table.integer('pages_done').unsigned().notNullable().defaultTo(0)
      table.string('error', 255).nullable()
      table.integer('requested_by').unsigned().nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['file_id', 'version'])
      table.index(['state'])
    })
    this.schema.createTable('documents_ocr_pages', (table) => {
      table
        .integer('run_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_ocr_runs')
        .onDelete('CASCADE')
      table.integer('page').unsigned().notNullable()
      // skip | ocr | scan | without_internet | bad_response | internal_error (spec 001 §2's details)
      table.string('state', 20).notNullable()
      table.text('text', 'longtext').nullable()
      // The page as the engine returned it, until the run joins the pages into one PDF.
      table.string('storage_key', 255).nullable()
      table.timestamp('created_at').notNullable()
      table.primary(['run_id', 'page'])
    })
    this.schema.alterTable('documents_versions', (table) => {
      table.string('ocr_key', 255).nullable()
      table.bigInteger('ocr_size').unsigned().nullable()
      table.integer('ocr_run_id').unsigned().nullable()
    })
  }

  async down() {
    this.schema.alterTable('documents_versions', (table) => {
      table.dropColumn('ocr_run_id')
      table.dropColumn('ocr_size')
      table.dropColumn('ocr_key')
    })
    this.schema.dropTable('documents_ocr_pages')
    this.schema.dropTable('documents_ocr_runs')
  }
}
