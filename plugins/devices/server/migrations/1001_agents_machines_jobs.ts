import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Agents with their tokens (only a hash kept) and their one live connection, machines as their agents
 * report them (with the people who may use each), and print and scan jobs with the files they print.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('devices_agents', (table) => {
      table.string('token_hash', 64).nullable().unique()
      // The token's first characters, to tell tokens apart on the admin screen (the token is shown once).
      table.string('token_hint', 12).nullable()
      table.integer('created_by').unsigned().nullable()
      table.timestamp('revoked_at').nullable()
      // The connection that holds the agent's lease (two processes with one token: the second is refused).
      table.string('session', 32).nullable()
      table.string('instance', 40).nullable()
      table.timestamp('session_seen_at').nullable()
      table.timestamp('last_seen_at').nullable()
      table.string('hostname', 255).nullable()
      table.string('version', 40).nullable()
    })
    this.schema.alterTable('devices_machines', (table) => {
      // The device as its agent names it (an IPP URI, a SANE device); unique on that agent.
      table.string('uid', 400).nullable()
      table.boolean('can_print').notNullable().defaultTo(false)
      table.boolean('can_scan').notNullable().defaultTo(false)
      table.text('trays').nullable()
      table.text('report').nullable()
      table.timestamp('reported_at').nullable()
      table.unique(['agent_id', 'uid'])
    })
    this.schema.createTable('devices_machine_people', (table) => {
      table
        .integer('machine_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('devices_machines')
        .onDelete('CASCADE')
      table.integer('user_id').unsigned().notNullable()
      table.primary(['machine_id', 'user_id'])
    })
    this.schema.createTable('devices_jobs', (table) => {
      table.string('id', 36).primary()
      table.string('kind', 10).notNullable() // print | scan
      table.integer('agent_id').unsigned().notNullable().references('id').inTable('devices_agents').onDelete('CASCADE')
      table
        .integer('machine_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('devices_machines')
        .onDelete('CASCADE')
      table.integer('user_id').unsigned().notNullable()
      // The form field the result goes to (a scan), and the client's own token for the job.
      table.string('form_key', 64).nullable()
      table.string('field', 150).nullable()
      table.string('token_form', 300).nullable()
      table.text('orders').notNullable()
      table.string('status', 12).notNullable().defaultTo('sent') // sent | done | failed | cancelled
      table.string('error', 30).nullable()
      table.string('detail', 500).nullable()
      table.text('result').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['agent_id', 'status'])
      table.index(['user_id', 'created_at'])
    })
    this.schema.createTable('devices_job_files', (table) => {
      table.string('job_id', 36).notNullable().references('id').inTable('devices_jobs').onDelete('CASCADE')
      table.integer('n').unsigned().notNullable()
      table.string('storage_key', 200).notNullable()
      table.string('name', 255).notNullable()
      table.string('mime', 100).notNullable()
      table.bigInteger('size').unsigned().notNullable()
      table.primary(['job_id', 'n'])
    })
  }

  async down() {
    this.schema.dropTable('devices_job_files')
    this.schema.dropTable('devices_jobs')
    this.schema.dropTable('devices_machine_people')
    this.schema.alterTable('devices_machines', (table) => {
      // MariaDB let the unique key stand for the agent's foreign-key index: give that one back first.
      table.index(['agent_id'], 'devices_machines_agent_id_index')
      table.dropUnique(['agent_id', 'uid'])
      for (const column of ['uid', 'can_print', 'can_scan', 'trays', 'report', 'reported_at']) table.dropColumn(column)
    })
    this.schema.alterTable('devices_agents', (table) => {
      table.dropUnique(['token_hash'])
      for (const column of [
        'token_hash',
        'token_hint',
        'created_by',
        'revoked_at',
        'session',
        'instance',
        'session_seen_at',
        'last_seen_at',
        'hostname',
        'version',
      ]) {
        table.dropColumn(column)
      }
    })
  }
}
