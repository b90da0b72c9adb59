import type { PersonSummary, PluginPeople } from '@tramita/plugin-api'

/**
 * The user an import or export acts for: the one whose username is `username` (any case), or, with
 * none given, the first superuser (lowest id).
 */
export async function resolveOwner(people: PluginPeople, username: string | undefined): Promise<PersonSummary> {
  const wanted = username?.trim()
  if (wanted) {
    const found = (await people.search(wanted, 50)).find((p) => p.username.toLowerCase() === wanted.toLowerCase())
    if (!found) throw new Error(`there is no enabled user "${wanted}"`)
    return found
  }
  const superusers = (await people.search('', 10_000))
    .filter((p) => p.roles.includes('superuser'))
    .sort((a, b) => a.id - b.id)
  if (!superusers[0]) throw new Error('there is no superuser to own the documents: give --owner USERNAME')
  return superusers[0]
}
