import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * An index's name is unique among its siblings (issue 19): createIndex and updateIndex look first, but
 * two requests at once could both find the name free. A unique key on (parent_id, name) would not do:
 * top-level indexes have no parent, and both engines hold NULLs distinct in a unique key. The key is on
 * the parent or 0 at the top level: an expression index on SQLite; on MariaDB, which indexes no
 * expressions, a stored generated column `sibling_of`. Names already repeated (from such a race) get
 * their id added, the oldest keeping its own. The key compares names as each engine does, as the look
 * beforehand does (MariaDB's collation ignores case and accents; SQLite's does not).
 */
const KEY = 'documents_indexes_sibling_name_unique'

export default class extends BaseSchema {
  async up() {
    const mysql = this.db.dialect.name === 'mysql'
    this.defer(async (db) => {
      // Compared by the database itself: a repeat found here is one the key would refuse (its collation).
      const repeated = (await db
        .from('documents_indexes as a')
        .select('a.id', 'a.name')
        .whereExists((query) =>
          query
            .from('documents_indexes as b')
            .whereColumn('b.name', 'a.name')
            .whereRaw('COALESCE(b.parent_id, 0) = COALESCE(a.parent_id, 0)')
            .whereRaw('b.id < a.id')
        )) as { id: number; name: string }[]
      for (const row of repeated) {
        await db
          .from('documents_indexes')
          .where('id', row.id)
          .update({ name: `${row.name.slice(0, 230)} (${row.id})` })
      }
    })
    if (mysql) {
      this.schema.raw(
        'ALTER TABLE documents_indexes ADD COLUMN sibling_of INT UNSIGNED AS (COALESCE(parent_id, 0)) STORED'
      )
      this.schema.raw(`CREATE UNIQUE INDEX ${KEY} ON documents_indexes (sibling_of, name)`)
    } else {
      this.schema.raw(`CREATE UNIQUE INDEX ${KEY} ON documents_indexes (COALESCE(parent_id, 0), name)`)
    }
  }

  async down() {
    this.schema.raw(this.db.dialect.name === 'mysql' ? `DROP INDEX ${KEY} ON documents_indexes` : `DROP INDEX ${KEY}`)
    if (this.db.dialect.name === 'mysql') this.schema.raw('ALTER TABLE documents_indexes DROP COLUMN sibling_of')
  }
}
