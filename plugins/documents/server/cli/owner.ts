import type { PersonSummary, PluginPeople } from '@tramita/plugin-api'

/** Ids looked up per read while looking for the first superuser, and how far the look goes. */
const BATCH = 500
const MAX_ID = 100_000

/**
 * The user an import or export acts for: the one whose username is `username` (any case), or, with
 * none given, the first superuser (lowest id). The directory has no "users with a role" read, so the
 * first superuser is found by reading users by id in batches from 1 (it is nearly always among the first).
 */
export async function resolveOwner(people: PluginPeople, username: string | undefined): Promise<PersonSummary> {
  const wanted = username?.trim()
  if (wanted) {
    const found = (await people.search(wanted, 100)).find((p) => p.username.toLowerCase() === wanted.toLowerCase())
    if (!found) throw new Error(`there is no enabled user "${wanted}"`)
    return found
  }
  for (let first = 1; first <= MAX_ID; first += BATCH) {
    const ids = Array.from({ length: BATCH }, (_, i) => first + i)
    const batch = [...(await people.byIds(ids)).values()].sort((a, b) => a.id - b.id)
    const superuser = batch.find((p) => p.roles.includes('superuser'))
    if (superuser) return superuser
  }
  throw new Error('there is no superuser to own the documents: give --owner USERNAME')
}
