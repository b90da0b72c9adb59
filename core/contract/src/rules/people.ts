/**
 * The users, areas, roles and machines selectors' option rule (spec 000 §3 `reduce`, §6 "User
 * selectors"): reduce lists restrict the options to the listed users or to those whose area and role
 * match; with every list empty, all options are offered.
 */

export type PeopleId = string | number

/** data.reduce of a selector field; a missing list is an empty one. */
export interface ReduceLists {
  areas?: readonly PeopleId[] | null
  roles?: readonly PeopleId[] | null
  users?: readonly PeopleId[] | null
}

/** What the rule reads of a user option: its id (`code`) and its areas and roles (`allData`). */
export interface ReducibleUser {
  code: PeopleId
  allData?: { areas?: readonly PeopleId[] | null; rol_user?: readonly PeopleId[] | null } | null
}

// Ids travel as numbers from the database and as text from a designer's JSON: compared as text.
const ids = (list: readonly PeopleId[] | null | undefined): Set<string> => new Set((list ?? []).map(String))
const meets = (wanted: Set<string>, have: readonly PeopleId[] | null | undefined): boolean =>
  wanted.size === 0 || (have ?? []).some((id) => wanted.has(String(id)))

/** Whether any reduce list is set (otherwise the selector offers every option). */
export function hasReduce(reduce: ReduceLists | null | undefined): boolean {
  return Boolean(reduce?.areas?.length || reduce?.roles?.length || reduce?.users?.length)
}

/**
 * Whether a user stays in a users selector under `reduce`: listed by id in `users`, or (when areas or
 * roles are listed) in one of the listed areas and holding one of the listed roles. An empty areas or
 * roles list does not narrow that half of the match. No list set: every user passes.
 */
export function userPassesReduce(user: ReducibleUser, reduce: ReduceLists | null | undefined): boolean {
  if (!hasReduce(reduce)) return true
  if (ids(reduce!.users).has(String(user.code))) return true
  const areas = ids(reduce!.areas)
  const roles = ids(reduce!.roles)
  if (areas.size === 0 && roles.size === 0) return false
  return meets(areas, user.allData?.areas) && meets(roles, user.allData?.rol_user)
}

/** The users a users selector offers under `reduce` (spec 000 §6), in their order. */
export function reduceUsers<T extends ReducibleUser>(users: readonly T[], reduce: ReduceLists | null | undefined): T[] {
  return users.filter((user) => userPassesReduce(user, reduce))
}

/**
 * The options an areas or roles selector offers: the ones its own reduce list names (reduce.areas for
 * areas, reduce.roles for roles), or all when that list is empty.
 */
export function reduceById<T>(
  options: readonly T[],
  listed: readonly PeopleId[] | null | undefined,
  idOf: (option: T) => PeopleId
): T[] {
  const wanted = ids(listed)
  return wanted.size === 0 ? [...options] : options.filter((option) => wanted.has(String(idOf(option))))
}
