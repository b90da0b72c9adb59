import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Each owner's bytes as a running total beside the owner's lock (issue 19): summing every version of a
 * library of 100,000 documents took seconds on each listing and each upload's quota check. Kept by
 * insertVersion and deleteTrashed (server/library/usage.ts); filled here from the rows already stored.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('documents_owner_locks', (table) => {
      table.bigInteger('bytes_used').unsigned().notNullable().defaultTo(0)
    })
    this.defer(async (db) => {
      const rows = (await db
        .from('documents_versions as v')
        .join('documents_files as f', 'f.id', 'v.file_id')
        .distinct('f.owner_id', 'v.storage_key', 'v.size')) as { owner_id: number; size: number | string }[]
      const totals = new Map<number, number>()
      for (const row of rows) totals.set(row.owner_id, (totals.get(row.owner_id) ?? 0) + Number(row.size))
      for (const [owner, bytes] of totals) {
        const known = await db.from('documents_owner_locks').where('user_id', owner).first()
        if (known) await db.from('documents_owner_locks').where('user_id', owner).update({ bytes_used: bytes })
        else await db.table('documents_owner_locks').insert({ user_id: owner, bytes_used: bytes })
      }
    })
  }

  async down() {
    this.schema.alterTable('documents_owner_locks', (table) => {
      table.dropColumn('bytes_used')
    })
  }
}
