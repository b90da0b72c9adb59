import { BaseSchema } from '@adonisjs/lucid/schema'

/** The login screen's background and panel images (spec 000 §2), set by administrators. */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('institution', (table) => {
      table.string('login_background', 500).nullable()
      table.string('login_panel', 500).nullable()
    })
  }

  async down() {
    this.schema.alterTable('institution', (table) => {
      table.dropColumn('login_panel')
      table.dropColumn('login_background')
    })
  }
}
