import { PluginFailure, type PluginDb } from '@tramita/plugin-api'
import { LIBRARY_LIMITS } from '../../shared/library.js'

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/

/** A file or folder name, trimmed; refused when empty, too long, or with a path or control character or `..`. */
export function cleanName(raw: string | undefined): string {
  const name = (raw ?? '').normalize('NFC').trim()
  if (name === '' || name.length > LIBRARY_LIMITS.nameMax || FORBIDDEN.test(name) || name.includes('..')) {
    throw new PluginFailure('documents.invalid_name', 400)
  }
  return name
}

/** Where a name lives: a folder, or an owner's root. */
export interface Place {
  folderId: number | null
  ownerId: number
}

/** Names in use in a place by items not in the trash (files and folders are separate lists). */
async function namesIn(db: PluginDb, kind: 'files' | 'folders', place: Place, like: string): Promise<Set<string>> {
  const parent = kind === 'files' ? 'folder_id' : 'parent_id'
  const owner = kind === 'files' ? 'owner_id' : 'creator_id'
  const query = db.table(kind).select('name').whereNull('trashed_at')
  if (place.folderId === null) query.whereNull(parent).where(owner, place.ownerId)
  else query.where(parent, place.folderId)
  // The name and its suffixed forms: "stem…" (LIKE with '!' as escape, the same on both engines).
  const rows = await query.whereRaw("name LIKE ? ESCAPE '!'", [`${likeEscape(stem(like))}%`])
  return new Set(rows.map((r: { name: string }) => r.name.toLowerCase()))
}

function likeEscape(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`)
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/** Is this name taken in the place (case-insensitive, as MariaDB's collation compares)? */
export async function nameTaken(db: PluginDb, kind: 'files' | 'folders', place: Place, name: string): Promise<boolean> {
  return (await namesIn(db, kind, place, name)).has(name.toLowerCase())
}

/**
 * The name itself when free, else "stem (2).ext", "stem (3).ext"… (the first free one): uploads and
 * restores never fail on a clash.
 */
export async function freeName(db: PluginDb, kind: 'files' | 'folders', place: Place, name: string): Promise<string> {
  const taken = await namesIn(db, kind, place, name)
  if (!taken.has(name.toLowerCase())) return name
  const dot = kind === 'files' ? name.lastIndexOf('.') : -1
  const base = dot > 0 ? name.slice(0, dot) : name
  const ext = dot > 0 ? name.slice(dot) : ''
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`
    const candidate = `${base.slice(0, LIBRARY_LIMITS.nameMax - suffix.length - ext.length)}${suffix}${ext}`
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}
