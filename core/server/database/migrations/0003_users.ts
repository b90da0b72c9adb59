import { BaseSchema } from '@adonisjs/lucid/schema'

/** Users: the fields of spec 001 §3 (profile) and 000 §3 (login object), with their area and role links. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('users', (table) => {
      table.increments('id')
      table.string('username', 100).notNullable().unique()
      table.string('email', 254).nullable().unique()
      // argon2id of the client's SHA-256 prehash (issue 4); null until a password is set.
      table.string('password_hash', 255).nullable()
      table.string('first_name', 100).notNullable()
      table.string('last_name', 100).notNullable().defaultTo('')
      table.string('photo', 500).nullable()
      table.string('document_type', 20).nullable()
      table.string('document_number', 40).nullable()
      table.string('mobile', 30).nullable()
      table.string('gender', 20).nullable()
      table.date('birth_date').nullable()
      table.string('birth_place', 150).nullable()
      table.string('residence', 200).nullable()
      table.smallint('stratum').nullable()
      table.string('profession', 150).nullable()
      table.integer('parent_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.boolean('enabled').notNullable().defaultTo(true)
      table.boolean('blocked').notNullable().defaultTo(false)
      table.boolean('api_enabled').notNullable().defaultTo(false)
      table.boolean('required_tfa').notNullable().defaultTo(false)
      table.boolean('two_fa').notNullable().defaultTo(false)
      table.text('two_fa_secret').nullable()
      table.timestamp('last_login_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('user_areas', (table) => {
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.integer('area_id').unsigned().notNullable().references('id').inTable('areas').onDelete('CASCADE')
      table.primary(['user_id', 'area_id'])
    })
    this.schema.createTable('user_roles', (table) => {
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.integer('role_id').unsigned().notNullable().references('id').inTable('roles').onDelete('CASCADE')
      table.primary(['user_id', 'role_id'])
    })
  }

  async down() {
    this.schema.dropTable('user_roles')
    this.schema.dropTable('user_areas')
    this.schema.dropTable('users')
  }
}
