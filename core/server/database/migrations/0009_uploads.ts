import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Files uploaded by the form runtime (spec 000 §7 upload/files). An upload is `staged` until a save
 * that references it commits and marks it `promoted` on its case; staged uploads nobody saved are
 * deleted by a maintenance job. `deleted` is the short-lived mark of a row whose object is being
 * removed, so a save cannot promote it meanwhile and a failed removal is retried.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('uploads', (table) => {
      table.increments('id')
      // What the runtime stores in the field value: /data/files/<uuid>.<ext>.
      table.string('path', 80).notNullable().unique()
      // The drive key (server-generated, see services/storage.ts).
      table.string('storage_key', 120).notNullable()
      table.string('real_name', 255).notNullable()
      table.string('ext', 10).notNullable().defaultTo('')
      // Sniffed from the content, never taken from the request.
      table.string('mime', 100).notNullable()
      table.bigInteger('size').unsigned().notNullable()
      table.string('ip', 45).notNullable().defaultTo('')
      // The uploader: a signed-in user, or the task whose link an external assignee used.
      table.integer('owner_user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.integer('owner_task_id').unsigned().nullable().references('id').inTable('tasks').onDelete('SET NULL')
      // The form and field whose rules the file was checked against.
      table.integer('form_id').unsigned().nullable().references('id').inTable('forms').onDelete('SET NULL')
      table.string('field', 100).notNullable()
      table.string('foldertype', 12).notNullable()
      table.string('status', 10).notNullable().defaultTo('staged')
      table.integer('case_id').unsigned().nullable().references('id').inTable('cases').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('promoted_at').nullable()
      table.index(['status', 'created_at'])
      table.index(['case_id'])
    })
  }

  async down() {
    this.schema.dropTable('uploads')
  }
}
