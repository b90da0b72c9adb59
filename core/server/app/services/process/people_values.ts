import db from '@adonisjs/lucid/services/db'
import {
  hasReduce,
  reduceById,
  userPassesReduce,
  valueSlots,
  type FormConfig,
  type ReduceLists,
} from '@tramita/contract'

/**
 * Users, areas and roles pickers hold the options the browser showed (id, label, and for users their
 * areas and roles). The browser is not trusted with any of it: each picked id must exist, must pass
 * the field's reduce lists (spec 000 §6) by the memberships the database holds, and the stored option
 * is rebuilt from the database, so a label or membership typed by a client never reaches a case.
 * Only pickers whose value changed are read again. Machines come with the devices plugin.
 */

export interface PeopleProblem {
  field: string
  /** A message key of `engine.*`, with its variables. */
  key: 'engine.person_unknown' | 'engine.person_not_allowed'
  vars: Record<string, string>
}

type Option = Record<string, unknown>
const idsOf = (value: unknown, key: 'code' | 'id'): number[] =>
  (Array.isArray(value) ? value : []).map((o) => Number((o as Option | null)?.[key])).filter(Number.isInteger)

async function users(ids: number[]) {
  const rows = (await db.from('users').whereIn('id', ids).select('id', 'first_name', 'last_name', 'photo')) as Record<
    string,
    any
  >[]
  const areas = (await db.from('user_areas').whereIn('user_id', ids).select('user_id', 'area_id')) as any[]
  const roles = (await db.from('user_roles').whereIn('user_id', ids).select('user_id', 'role_id')) as any[]
  return new Map(
    rows.map((u) => [
      Number(u.id),
      {
        code: Number(u.id),
        label: `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim(),
        ...(u.photo ? { photo: String(u.photo) } : {}),
        allData: {
          areas: areas.filter((a) => a.user_id === u.id).map((a) => Number(a.area_id)),
          rol_user: roles.filter((r) => r.user_id === u.id).map((r) => Number(r.role_id)),
        },
      },
    ])
  )
}

async function named(table: 'areas' | 'roles', ids: number[]) {
  const columns = table === 'areas' ? ['id', 'name', 'color'] : ['id', 'name']
  const rows = (await db
    .from(table)
    .whereIn('id', ids)
    .select(...columns)) as Record<string, any>[]
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { id: Number(row.id), name: String(row.name), ...(row.color ? { color: String(row.color) } : {}) },
    ])
  )
}

/** The values with every changed picker checked and rebuilt; problems name the field and the person. */
export async function verifiedPeople(
  form: FormConfig,
  stored: Record<string, unknown>,
  values: Record<string, unknown>
): Promise<{ values: Record<string, unknown>; problems: PeopleProblem[] }> {
  const out = { ...values }
  const problems: PeopleProblem[] = []
  // Each field, and each repetition of a set field (its own key).
  for (const { item, key: slot } of valueSlots(form, values)) {
    const type = item.type
    if (type !== 'users' && type !== 'areas' && type !== 'roles') continue
    const value = values[slot]
    if (!Array.isArray(value) || value.length === 0) continue
    if (JSON.stringify(value) === JSON.stringify(stored[slot])) continue
    const reduce = (item.data.reduce ?? {}) as ReduceLists
    const key = type === 'users' ? 'code' : 'id'
    const wanted = idsOf(value, key)
    const found = type === 'users' ? await users(wanted) : await named(type, wanted)
    const rebuilt: Option[] = []
    for (const picked of value as Option[]) {
      const id = Number(picked?.[key])
      const row = found.get(id)
      const who = String(picked?.[type === 'users' ? 'label' : 'name'] ?? picked?.[key] ?? '')
      if (!row) {
        problems.push({ field: slot, key: 'engine.person_unknown', vars: { field: slot, who } })
        continue
      }
      const allowed =
        type === 'users'
          ? userPassesReduce(row as { code: number; allData: { areas: number[]; rol_user: number[] } }, reduce)
          : !hasReduce(reduce) || reduceById([row], type === 'areas' ? reduce.areas : reduce.roles, () => id).length > 0
      if (!allowed) {
        problems.push({ field: slot, key: 'engine.person_not_allowed', vars: { field: slot, who } })
        continue
      }
      rebuilt.push(row)
    }
    out[slot] = rebuilt
  }
  return { values: out, problems }
}
