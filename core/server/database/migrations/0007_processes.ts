import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Forms, their immutable versions (jsonconfig + process definition), and the process engine's cases,
 * tasks (one per assigned step) and activity log (spec 000 §3–§4). A case keeps the version it
 * started on. Values are one JSON document per case: a save rewrites one row, not one per field.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('forms', (table) => {
      table.increments('id')
      // The `data` query parameter of /forms/new: unguessable, so a form id cannot be enumerated.
      table.string('key', 32).notNullable().unique()
      table.string('name', 200).notNullable()
      table.integer('created_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('form_versions', (table) => {
      table.increments('id')
      table.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE')
      table.integer('version').unsigned().notNullable()
      table.text('jsonconfig', 'longtext').notNullable()
      table.text('process', 'longtext').notNullable()
      // Null while a draft; set once, after which the row never changes.
      table.timestamp('published_at').nullable()
      table.integer('created_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.unique(['form_id', 'version'])
    })
    this.schema.createTable('cases', (table) => {
      table.increments('id')
      table.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE')
      table
        .integer('form_version_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('form_versions')
        .onDelete('CASCADE')
      // Typed by people on the consultation page: unambiguous letters and digits, e.g. K7M2Q-9XD4H.
      table.string('code', 16).notNullable().unique()
      table.string('state', 40).notNullable()
      table.string('status', 10).notNullable().defaultTo('open')
      // {field_name: stored value} as validateSubmission returned it.
      table.text('values', 'longtext').notNullable()
      // Process variables from the form URL (query parameters that are not the spec's own).
      table.text('params', 'longtext').nullable()
      table.integer('created_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.timestamp('ended_at').nullable()
      table.index(['form_id', 'state'])
      table.index(['created_by'])
    })
    this.schema.createTable('tasks', (table) => {
      table.increments('id')
      table.integer('case_id').unsigned().notNullable().references('id').inTable('cases').onDelete('CASCADE')
      table.string('step_id', 40).notNullable()
      table.string('kind', 10).notNullable()
      // user, rol, area or external, with the id (user, rol, area) or e-mail (external).
      table.string('assignee_type', 10).notNullable()
      table.integer('assignee_id').unsigned().nullable()
      table.string('assignee_email', 254).nullable()
      table.string('assignee_text', 300).notNullable().defaultTo('')
      // pending → done (or cancelled when the case moves on without it).
      table.string('status', 10).notNullable().defaultTo('pending')
      // A role or area task is claimed by one member, so two people do not do the same step.
      table.integer('claimed_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.integer('done_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.string('decision', 40).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('done_at').nullable()
      table.index(['case_id', 'status'])
      table.index(['assignee_type', 'assignee_id', 'status'])
    })
    this.schema.createTable('activities', (table) => {
      table.increments('id')
      table.integer('case_id').unsigned().notNullable().references('id').inTable('cases').onDelete('CASCADE')
      table.integer('task_id').unsigned().nullable().references('id').inTable('tasks').onDelete('SET NULL')
      // start, assign, assign_parameter, state, approve, approve_parameter, email, end.
      table.string('type', 20).notNullable()
      // The log text: started, assigned, approval_requested, performed, option_selected, email_sent,
      // state_changed, finished.
      table.string('event', 24).notNullable()
      table.string('label', 200).notNullable().defaultTo('')
      table.string('color', 20).notNullable().defaultTo('')
      table.string('assignees', 300).notNullable().defaultTo('')
      // user, rol, area or external (assign and approve entries).
      table.string('type_asignador', 10).nullable()
      table.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.index(['case_id', 'id'])
    })
  }

  async down() {
    this.schema.dropTable('activities')
    this.schema.dropTable('tasks')
    this.schema.dropTable('cases')
    this.schema.dropTable('form_versions')
    this.schema.dropTable('forms')
  }
}
