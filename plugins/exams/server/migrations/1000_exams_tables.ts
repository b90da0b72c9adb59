import { BaseSchema } from '@adonisjs/lucid/schema'

/** Tables the exams plugin owns (prefixed with its id). Its features arrive with their issue. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('exams_banks', (table) => {
      table.increments('id')
      table.string('name', 200).notNullable()
      table.integer('creator_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
    this.schema.createTable('exams_questions', (table) => {
      table.increments('id')
      table.integer('bank_id').unsigned().notNullable().references('id').inTable('exams_banks').onDelete('CASCADE')
      table.text('statement').notNullable()
      table.smallint('weight').notNullable().defaultTo(1) // 1 to 10
      table.string('time', 5).nullable() // mm:ss
      table.string('kind', 10).notNullable().defaultTo('normal') // bonus | normal
      table.string('answer_type', 20).notNullable().defaultTo('open') // open | boolean | multiple
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('exams_questions')
    this.schema.dropTable('exams_banks')
  }
}
