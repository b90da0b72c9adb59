/**
 * Sharing's HTTP contract (spec 001 §2, §4, §5, §7, §8; issue 19 items 4 and 5): shares with people, by
 * e-mail and by public link, and the public link screen's calls. Shared by server/sharing/ and the web
 * screens. Isomorphic: no node:, no DOM.
 *
 * Routes under /api/documents are signed-in and answer `{status: 'done', data}`; a failure is
 * `{status: 'fail', message}` with a 4xx. Only an item's owner (or a superuser) shares it, changes or
 * revokes its shares and links: 'all' lets a grantee change the content, not who else sees it.
 */

export type SharePermission = 'read' | 'all'
export const SHARE_PERMISSIONS: readonly SharePermission[] = ['read', 'all']

export type ItemType = 'file' | 'folder'
export const ITEM_TYPES: readonly ItemType[] = ['file', 'folder']

export type GranteeType = 'user' | 'area' | 'role'
export const GRANTEE_TYPES: readonly GranteeType[] = ['user', 'area', 'role']

export type LinkMode = 'direct' | 'password' | 'visitor'
export const LINK_MODES: readonly LinkMode[] = ['direct', 'password', 'visitor']

/** The spec's `estado` of a public link by its dates. */
export type LinkState = 'not_active' | 'active' | 'closed'

export const SHARING_LIMITS = {
  /** Grantees in one share request. */
  granteesPerRequest: 100,
  emailMax: 254,
  passwordMin: 4,
  passwordMax: 128,
  /** Spec 001 §5: a phone is valid when over 10 characters without spaces. */
  phoneMinExclusive: 10,
  phoneMax: 30,
  visitorTextMax: 255,
  /** How long the file address handed out after a link is opened stays valid. */
  grantMinutes: 10,
  /** Wrong passwords of one link (any address), then of one address (any link), in the window. */
  wrongPasswordsPerLink: 10,
  wrongPasswordsPerIp: 20,
  wrongPasswordWindowMinutes: 15,
  /** Spec 001 §5, §9: the missing-document screen closes after this long. */
  missingCloseMs: 2000,
} as const

export const SHARING_ROUTES = {
  /** type (file | folder), id → ShareList: the owner and everyone with access (owner only). */
  list: { method: 'GET', path: '/api/documents/shares' },
  /** type, id, grantees (JSON [{type: user|area|role, id}]), permission → ShareList. Sharing again changes
   * the permission. */
  share: { method: 'POST', path: '/api/documents/shares' },
  /** type, id, email, permission, language (for an address that is no user) → ShareList. An existing user's
   * address becomes a user share (mailed the item's address); another address is mailed a public link
   * (files only: a folder by e-mail only to users). */
  shareByEmail: { method: 'POST', path: '/api/documents/shares/email' },
  /** permission → ShareList. */
  update: { method: 'PUT', path: '/api/documents/shares/:id' },
  /** → ShareList (revokes; an e-mail share's link too). */
  revoke: { method: 'DELETE', path: '/api/documents/shares/:id' },
  /** file_id → LinkRow[] (newest first, revoked included). */
  links: { method: 'GET', path: '/api/documents/links' },
  /** file_id, mode, password (mode password; 4..128), allow_download (1|0, default 1), starts_at, ends_at
   * (ISO dates, optional) → CreatedLink: the address is shown this once (only the token's hash is kept). */
  createLink: { method: 'POST', path: '/api/documents/links' },
  /** → LinkRow. */
  revokeLink: { method: 'DELETE', path: '/api/documents/links/:id' },
  /** limit, offset → LinkAccessRow[] (newest first): who opened it, visitors' data. */
  accesses: { method: 'GET', path: '/api/documents/links/:id/accesses' },
  /** Public. token → VerifyAnswer, or fail 'This document does not exist'. */
  verify: { method: 'POST', path: '/data/documents/verify/document/public' },
  /** Public. socketID, type (password | public | direct), data (password: hex SHA-256 of the typed
   * password; public: VisitorData as JSON) → OpenAnswer; `fileReady` {rute} is also sent on that socket. */
  open: { method: 'GET', path: '/getPublicFile/:token' },
  /** Public. download=1 (refused when the link allows no download) → the file, inline by default. */
  grant: { method: 'GET', path: '/api/documents/public/:grant' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>

/** The web screen of a public link (the address mailed and shown when a link is made). */
export const PUBLIC_LINK_SCREEN = '/static/public/:token'
export function publicLinkPath(token: string): string {
  return `/static/public/${encodeURIComponent(token)}`
}

export interface PersonRef {
  id: number
  name: string
}

export interface ShareRow {
  id: number
  grantee_type: GranteeType | 'email'
  /** Null for an e-mail share. */
  grantee_id: number | null
  grantee_email: string | null
  /** The user's, area's or role's name (the address for an e-mail share). */
  name: string
  permission: SharePermission
  created_at: string
  /** The public link mailed, for an e-mail share. */
  link_id: number | null
}

export interface ShareList {
  type: ItemType
  id: number
  owner: PersonRef
  shares: ShareRow[]
}

export interface LinkRow {
  id: number
  file_id: number
  mode: LinkMode
  allow_download: boolean
  starts_at: string | null
  ends_at: string | null
  created_at: string
  revoked_at: string | null
  /** By its dates now; a revoked link is 'closed'. */
  state: LinkState
  accesses: number
  /** The e-mail address it was sent to, when made by an e-mail share. */
  sent_to: string | null
}

export interface CreatedLink {
  link: LinkRow
  /** The absolute address to give out (shown only now). */
  url: string
  token: string
}

export interface LinkAccessRow {
  id: number
  outcome: 'opened' | 'downloaded' | 'wrong_password' | 'not_active' | 'closed' | 'throttled'
  ip: string
  created_at: string
  visitor: VisitorData | null
}

/** The spec's answer of verify: `estado`, which step comes next (`pass`), the file's name. */
export interface VerifyAnswer {
  estado: LinkState
  pass: LinkMode
  name: string
}

/** What getPublicFile answers (the same `rute` travels in the `fileReady` socket event). */
export interface OpenAnswer {
  rute: string
  name: string
  allow_download: boolean
}

/** Spec 001 §3, §5: the visitor form. */
export interface VisitorData {
  name_company: string
  name: string
  email: string
  /** With its country code: "+57 3001234567". */
  phone: string
  accept: boolean
}

export type VisitorField = 'name' | 'email' | 'phone' | 'accept' | 'name_company'

/** A standard address pattern (spec 001 §5): something@domain.tld, without spaces or the characters a mail header treats apart. */
export const EMAIL_PATTERN = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]{2,}$/

/** Spec 001 §5: over 10 characters once spaces are taken out, digits with an optional leading '+'. */
export function phoneValid(phone: string): boolean {
  const compact = phone.replace(/\s+/g, '')
  return (
    compact.length > SHARING_LIMITS.phoneMinExclusive &&
    compact.length <= SHARING_LIMITS.phoneMax &&
    /^\+?\d+$/.test(compact)
  )
}

/**
 * Checks the visitor form as spec 001 §5 says (full name, a valid e-mail, a valid phone and the
 * authorization are required; the company is optional). Returns the cleaned data, or the fields in error.
 */
export function checkVisitor(raw: unknown): { ok: true; data: VisitorData } | { ok: false; errors: VisitorField[] } {
  const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string).trim() : '')
  const data: VisitorData = {
    name_company: text('name_company'),
    name: text('name'),
    email: text('email'),
    phone: text('phone').replace(/\s+/g, ' '),
    accept: value.accept === true || value.accept === 'true' || value.accept === 1,
  }
  const errors: VisitorField[] = []
  const max = SHARING_LIMITS.visitorTextMax
  if (data.name_company.length > max) errors.push('name_company')
  if (data.name === '' || data.name.length > max) errors.push('name')
  if (!EMAIL_PATTERN.test(data.email) || data.email.length > SHARING_LIMITS.emailMax) errors.push('email')
  if (!phoneValid(data.phone)) errors.push('phone')
  if (!data.accept) errors.push('accept')
  return errors.length === 0 ? { ok: true, data } : { ok: false, errors }
}

/** The link's state at `now` by its dates (a null date is open-ended). */
export function linkState(starts: Date | null, ends: Date | null, now: Date): LinkState {
  if (starts && now < starts) return 'not_active'
  if (ends && now >= ends) return 'closed'
  return 'active'
}
