import db from '@adonisjs/lucid/services/db'
import type { PersonSummary, PluginPeople } from '@tramita/plugin-api'
import { DEFAULT_LANGUAGE } from '@tramita/i18n'

/** At most this many ids per query (SQLite's bound-parameter limit is far above it). */
const BATCH = 500

interface UserRow {
  id: number
  username: string
  email: string | null
  first_name: string
  last_name: string
}

/** Lower-case, accents off: what search compares. */
export function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

async function summaries(users: UserRow[]): Promise<PersonSummary[]> {
  if (users.length === 0) return []
  const ids = users.map((u) => u.id)
  const [roles, areas] = await Promise.all([
    db
      .from('user_roles')
      .join('roles', 'roles.id', 'user_roles.role_id')
      .whereIn('user_roles.user_id', ids)
      .select('user_roles.user_id', 'roles.id', 'roles.name'),
    db.from('user_areas').whereIn('user_id', ids).select('user_id', 'area_id'),
  ])
  return users.map((u) => ({
    id: Number(u.id),
    name: `${u.first_name} ${u.last_name}`.trim(),
    username: u.username,
    email: u.email,
    roles: roles.filter((r) => Number(r.user_id) === Number(u.id)).map((r) => String(r.name)),
    roleIds: roles.filter((r) => Number(r.user_id) === Number(u.id)).map((r) => Number(r.id)),
    areaIds: areas.filter((a) => Number(a.user_id) === Number(u.id)).map((a) => Number(a.area_id)),
    // Users have no language of their own yet: the product's default.
    language: DEFAULT_LANGUAGE,
  }))
}

const COLUMNS = ['id', 'username', 'email', 'first_name', 'last_name']

/** The read-only directory a plugin gets: batch reads by id, search, areas and roles. */
export function pluginPeople(): PluginPeople {
  return {
    async byIds(ids) {
      const unique = [...new Set(ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0))]
      const found = new Map<number, PersonSummary>()
      for (let i = 0; i < unique.length; i += BATCH) {
        const users = (await db
          .from('users')
          .whereIn('id', unique.slice(i, i + BATCH))
          .select(COLUMNS)) as UserRow[]
        for (const person of await summaries(users)) found.set(person.id, person)
      }
      return found
    },

    async search(text, limit = 20) {
      const wanted = folded(text.trim()).slice(0, 100)
      const max = Math.min(Math.max(1, Math.floor(limit)), 100)
      if (!wanted) return []
      const query = db.from('users').where('enabled', true).select(COLUMNS).orderBy('id')
      if (db.connection().dialect.name === 'mysql') {
        // MariaDB's utf8mb4 collation compares case- and accent-insensitively already.
        const like = `%${wanted.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        query
          .where((q) =>
            q
              .where('username', 'like', like)
              .orWhere('email', 'like', like)
              .orWhereRaw("CONCAT(first_name, ' ', last_name) LIKE ?", [like])
          )
          .limit(max)
        return summaries((await query) as UserRow[])
      }
      // SQLite folds neither accents nor non-ASCII case: the embedded directory is compared here.
      const matches = ((await query) as UserRow[]).filter((u) =>
        [u.username, u.email ?? '', `${u.first_name} ${u.last_name}`].some((v) => folded(v).includes(wanted))
      )
      return summaries(matches.slice(0, max))
    },

    async areas() {
      const rows = await db.from('areas').select('id', 'name', 'color').orderBy('name')
      return rows.map((r) => ({ id: Number(r.id), name: String(r.name), color: r.color ?? null }))
    },

    async roles() {
      const rows = await db.from('roles').select('id', 'name').orderBy('name')
      return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }))
    },
  }
}
