import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Sign-in and user administration (issue 4): lockout and one-time TOTP steps on users, directory
 * (LDAP) users, and the tables behind recovery, two-factor, API tokens, sign-in tickets, the rate
 * limiter and server keys. Every secret token is stored as a SHA-256 hash, never as sent.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      // 'local' (argon2id password) or 'ldap' (bind against the directory).
      table.string('auth_source', 10).notNullable().defaultTo('local')
      table.timestamp('locked_until').nullable()
      // The last TOTP time step accepted: a code is usable once.
      table.bigInteger('two_fa_last_step').nullable()
      table.timestamp('password_changed_at').nullable()
    })
    this.schema.alterTable('sessions', (table) => {
      // Set when an administrator opened this session as another user (impersonation).
      table.integer('impersonator_id').unsigned().nullable().references('id').inTable('users').onDelete('CASCADE')
    })
    this.schema.createTable('password_resets', (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['user_id'])
    })
    this.schema.createTable('recovery_codes', (table) => {
      table.increments('id')
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('code_hash', 64).notNullable()
      table.timestamp('used_at').nullable()
      table.index(['user_id'])
    })
    // A password that was right but still needs a second factor (or enrolment): short-lived.
    this.schema.createTable('login_tickets', (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      // Encrypted TOTP seed offered for enrolment, until the first good code confirms it.
      table.text('pending_secret').nullable()
      table.smallint('failures').notNullable().defaultTo(0)
      table.boolean('verified').notNullable().defaultTo(false)
      table.string('ip', 64).nullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('created_at').notNullable()
    })
    this.schema.createTable('api_tokens', (table) => {
      table.increments('id')
      table.string('token_hash', 64).notNullable().unique()
      table.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('name', 100).notNullable()
      table.timestamp('last_used_at').nullable()
      table.timestamp('expires_at').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['user_id'])
    })
    // @adonisjs/limiter's database store (used when Redis is not configured).
    this.schema.createTable('rate_limits', (table) => {
      table.string('key', 255).notNullable().primary()
      table.integer('points', 9).notNullable().defaultTo(0)
      table.bigint('expire').unsigned()
    })
    // Key pairs the server generates once and every node shares (the directory-login RSA key).
    this.schema.createTable('server_keys', (table) => {
      table.string('name', 60).primary()
      table.text('public_pem').notNullable()
      table.text('private_encrypted').notNullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('server_keys')
    this.schema.dropTable('rate_limits')
    this.schema.dropTable('api_tokens')
    this.schema.dropTable('login_tickets')
    this.schema.dropTable('recovery_codes')
    this.schema.dropTable('password_resets')
    this.schema.alterTable('sessions', (table) => {
      table.dropForeign(['impersonator_id'])
      table.dropColumn('impersonator_id')
    })
    this.schema.alterTable('users', (table) => {
      table.dropColumn('password_changed_at')
      table.dropColumn('two_fa_last_step')
      table.dropColumn('locked_until')
      table.dropColumn('auth_source')
    })
  }
}
