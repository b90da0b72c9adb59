import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The library (issue 19): files and their versions, folders' owner and trash, labels, comments,
 * shares, public links and their accesses, recently opened files, indexes with typed metadata, quotas
 * and the full-text table. Only `documents_*` tables; the only keys into the core are user ids.
 */
export default class extends BaseSchema {
  async up() {
    const mysql = this.db.dialect.name === 'mysql'

    this.schema.alterTable('documents_folders', (table) => {
      table.timestamp('trashed_at').nullable().index()
      table.integer('trashed_by').unsigned().nullable()
      table.integer('row_version').unsigned().notNullable().defaultTo(1)
      table.index(['creator_id', 'parent_id'])
    })

    // A file is the spec's document: its current version's facts are copied here for listings.
    this.schema.createTable('documents_files', (table) => {
      table.increments('id')
      table.integer('folder_id').unsigned().nullable().references('id').inTable('documents_folders').onDelete('CASCADE')
      table.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('name', 255).notNullable()
      table.string('extension', 20).notNullable().defaultTo('')
      table.string('mime', 100).notNullable()
      table.bigInteger('size').unsigned().notNullable()
      table.string('storage_key', 255).notNullable()
      table.string('sha256', 64).notNullable()
      table.integer('current_version').unsigned().notNullable().defaultTo(1)
      table.integer('pages').unsigned().nullable()
      // OCR (issue 20): none | pending | running | done | failed; sub_type ocr | digital | other.
      table.string('ocr_state', 20).notNullable().defaultTo('none')
      table.string('sub_type', 20).nullable()
      table.timestamp('trashed_at').nullable().index()
      table.integer('trashed_by').unsigned().nullable()
      table.integer('row_version').unsigned().notNullable().defaultTo(1)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['owner_id', 'folder_id'])
      table.index(['folder_id', 'name'])
    })

    this.schema.createTable('documents_versions', (table) => {
      table.increments('id')
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.integer('number').unsigned().notNullable()
      table.string('name', 255).notNullable()
      table.string('mime', 100).notNullable()
      table.bigInteger('size').unsigned().notNullable()
      table.string('storage_key', 255).notNullable()
      table.string('sha256', 64).notNullable()
      table.integer('pages').unsigned().nullable()
      table.integer('created_by').unsigned().nullable()
      table.timestamp('created_at').notNullable()
      table.unique(['file_id', 'number'])
    })

    this.schema.createTable('documents_labels', (table) => {
      table.increments('id')
      table.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('name', 60).notNullable()
      table.string('description', 255).nullable()
      table.string('color', 7).notNullable() // #rrggbb
      table.timestamp('created_at').notNullable()
      table.unique(['owner_id', 'name'])
    })
    this.schema.createTable('documents_file_labels', (table) => {
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table
        .integer('label_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_labels')
        .onDelete('CASCADE')
      table.primary(['file_id', 'label_id'])
    })

    this.schema.createTable('documents_comments', (table) => {
      table.increments('id')
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.integer('user_id').unsigned().nullable()
      table.string('text', 2000).notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['file_id', 'id'])
    })

    // Who may reach a file or folder: a user, an area, a role, or an e-mail address (mailed a link).
    this.schema.createTable('documents_shares', (table) => {
      table.increments('id')
      table.string('subject_type', 10).notNullable() // file | folder
      table.integer('subject_id').unsigned().notNullable()
      table.string('grantee_type', 10).notNullable() // user | area | role | email
      table.integer('grantee_id').unsigned().nullable()
      table.string('grantee_email', 255).nullable()
      table.string('permission', 10).notNullable() // read | all
      table.integer('created_by').unsigned().notNullable()
      table.timestamp('created_at').notNullable()
      // Named: the generated name passes MariaDB's 64-character limit.
      table.unique(['subject_type', 'subject_id', 'grantee_type', 'grantee_id', 'grantee_email'], {
        indexName: 'documents_shares_subject_grantee_unique',
      })
      table.index(['grantee_type', 'grantee_id'])
    })

    // Public links: only the token's hash is kept; dates bound when it opens.
    this.schema.createTable('documents_links', (table) => {
      table.increments('id')
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.string('token_hash', 64).notNullable().unique()
      table.string('mode', 10).notNullable() // direct | password | visitor
      table.string('password_hash', 255).nullable()
      table.boolean('allow_download').notNullable().defaultTo(true)
      table.timestamp('starts_at').nullable()
      table.timestamp('ends_at').nullable()
      table.integer('created_by').unsigned().notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('revoked_at').nullable()
    })
    this.schema.createTable('documents_link_accesses', (table) => {
      table.increments('id')
      table.integer('link_id').unsigned().notNullable().references('id').inTable('documents_links').onDelete('CASCADE')
      table.string('outcome', 20).notNullable() // opened | downloaded | wrong_password | not_active | closed
      table.string('visitor_company', 255).nullable()
      table.string('visitor_name', 255).nullable()
      table.string('visitor_email', 255).nullable()
      table.string('visitor_phone', 30).nullable()
      table.boolean('visitor_accepted').nullable()
      table.string('ip', 64).notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['link_id', 'created_at'])
    })

    this.schema.createTable('documents_recent', (table) => {
      table.integer('user_id').unsigned().notNullable()
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table.timestamp('opened_at').notNullable()
      table.primary(['user_id', 'file_id'])
      table.index(['user_id', 'opened_at'])
    })

    // Indexes: a tree of named indexes, each with typed metadata columns ([{name, type}]); a file
    // filed under an index carries its values.
    this.schema.createTable('documents_indexes', (table) => {
      table.increments('id')
      table.integer('parent_id').unsigned().nullable().references('id').inTable('documents_indexes').onDelete('CASCADE')
      table.string('name', 255).notNullable()
      table.text('columns').notNullable() // JSON
      table.integer('owner_id').unsigned().notNullable()
      table.timestamp('created_at').notNullable()
    })
    this.schema.createTable('documents_file_metadata', (table) => {
      table.integer('file_id').unsigned().notNullable().references('id').inTable('documents_files').onDelete('CASCADE')
      table
        .integer('index_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('documents_indexes')
        .onDelete('CASCADE')
      table.text('values').notNullable() // JSON, by column name
      table.primary(['file_id', 'index_id'])
    })

    // A user's storage quota in bytes when it is not the plugin's default (settings).
    this.schema.createTable('documents_quotas', (table) => {
      table.integer('user_id').unsigned().primary()
      table.bigInteger('bytes').unsigned().notNullable()
    })

    // Full text: names, labels, metadata and (issue 20) page text, one row per file.
    if (mysql) {
      this.schema.createTable('documents_search', (table) => {
        table.integer('file_id').unsigned().primary()
        table.text('name').notNullable()
        table.text('labels').notNullable()
        table.text('metadata').notNullable()
        table.text('body', 'longtext').notNullable()
      })
      this.schema.raw('ALTER TABLE documents_search ADD FULLTEXT documents_search_ft (name, labels, metadata, body)')
    } else {
      this.schema.raw(
        "CREATE VIRTUAL TABLE documents_search USING fts5(file_id UNINDEXED, name, labels, metadata, body, tokenize = 'unicode61 remove_diacritics 2')"
      )
    }
  }

  async down() {
    for (const name of [
      'documents_search',
      'documents_quotas',
      'documents_file_metadata',
      'documents_indexes',
      'documents_recent',
      'documents_link_accesses',
      'documents_links',
      'documents_shares',
      'documents_comments',
      'documents_file_labels',
      'documents_labels',
      'documents_versions',
      'documents_files',
    ]) {
      this.schema.dropTableIfExists(name)
    }
    const mysql = this.db.dialect.name === 'mysql'
    this.schema.alterTable('documents_folders', (table) => {
      // MariaDB dropped creator_id's own foreign-key index for this one: it needs one back first.
      if (mysql) table.index(['creator_id'])
      table.dropIndex(['creator_id', 'parent_id'])
      table.dropColumn('trashed_at')
      table.dropColumn('trashed_by')
      table.dropColumn('row_version')
    })
  }
}
