/**
 * The library's HTTP contract (spec 001 §2, §9): its routes and the shapes they answer, shared by the
 * server half (server/library/) and the screens (web/). Isomorphic: no node:, no DOM.
 *
 * Every route is signed-in and answers `{status: 'done', data}` (or a file for `content`); a failure is
 * `{status: 'fail', message}` with a 4xx. Fields travel as form-data (GET: query); a list of ids is one
 * JSON-valued field (`files: [1, 2]`), which `call()` of @tramita/web writes from an array.
 */

export type LibraryView = 'mine' | 'shared' | 'recent' | 'trash'
export const LIBRARY_VIEWS: readonly LibraryView[] = ['mine', 'shared', 'recent', 'trash']

export type LibrarySort = 'name' | 'date' | 'size'
export const LIBRARY_SORTS: readonly LibrarySort[] = ['name', 'date', 'size']

export type Permission = 'all' | 'read'
export type FolderType = 'normal' | 'synchronized'
export type OcrState = 'none' | 'pending' | 'running' | 'done' | 'failed'

/** Limits the server enforces (and the screens may show). */
export const LIBRARY_LIMITS = {
  /** Rows per page of a listing when `limit` is absent, and its largest value. */
  pageSize: 50,
  maxPageSize: 200,
  /** Recent: the last files opened. */
  recent: 50,
  /** Spec 001 §9: the last 5 comments are shown. */
  commentsShown: 5,
  commentMax: 2000,
  nameMax: 255,
  labelNameMax: 60,
  labelDescriptionMax: 255,
  /** Files in one upload request. */
  filesPerUpload: 100,
} as const

/**
 * The routes, by what they do. `:id` is a file's id (a folder's for `folder`), `:number` a version's.
 * Fields (form-data or query) are listed beside each.
 */
export const LIBRARY_ROUTES = {
  /** view ∈ LIBRARY_VIEWS; folder (mine: a folder of mine or shared with me; absent: my root / the view's top),
   * sort (name|date|size, default name), order (asc|desc), limit, offset → LibraryListing. */
  list: { method: 'GET', path: '/api/documents/library/:view' },
  /** name, parent_id (absent: my root), type (normal | synchronized: refused, no agent), path, agent_id → FolderRow. */
  makeFolder: { method: 'POST', path: '/api/documents/folders' },
  /** Multipart: files (one or many), folder_id (absent: my root), new_version_of (a file id: the one file
   * becomes its new version) → UploadAnswer. */
  upload: { method: 'POST', path: '/api/documents/files' },
  /** version (absent: current), download=1 (attachment; else inline) → the file's bytes; records "recent". */
  content: { method: 'GET', path: '/api/documents/files/:id/content' },
  /** → FileRow (one file, with permission and labels). */
  file: { method: 'GET', path: '/api/documents/files/:id' },
  /** → VersionRow[] (newest first). */
  versions: { method: 'GET', path: '/api/documents/files/:id/versions' },
  /** Makes that version's bytes the current ones, as a new version number → FileRow. */
  restoreVersion: { method: 'POST', path: '/api/documents/files/:id/versions/:number/restore' },
  /** files, folders (JSON id lists; mine, or shared with me with 'all') → TrashAnswer. A folder takes its content. */
  trash: { method: 'POST', path: '/api/documents/trash' },
  /** files, folders (JSON id lists, trashed by me or mine) → TrashAnswer: back where they were, else my root. */
  restore: { method: 'POST', path: '/api/documents/trash/restore' },
  /** files, folders (JSON id lists; both absent: all my trash) → TrashAnswer: deleted for good. */
  empty: { method: 'POST', path: '/api/documents/trash/empty' },
  /** → LabelRow[] (mine). */
  labels: { method: 'GET', path: '/api/documents/labels' },
  /** name (≤ 60), description, color (#rrggbb) → LabelRow. */
  createLabel: { method: 'POST', path: '/api/documents/labels' },
  /** name, description, color → LabelRow. */
  updateLabel: { method: 'PUT', path: '/api/documents/labels/:id' },
  /** → { id }. */
  deleteLabel: { method: 'DELETE', path: '/api/documents/labels/:id' },
  /** label_ids (JSON id list of my labels; replaces my labels on that file) → FileRow. */
  setLabels: { method: 'PUT', path: '/api/documents/files/:id/labels' },
  /** → CommentRow[] (the last 5, oldest first). */
  comments: { method: 'GET', path: '/api/documents/files/:id/comments' },
  /** text (1..2000) → CommentRow[] (the last 5 after adding). */
  addComment: { method: 'POST', path: '/api/documents/files/:id/comments' },
  /** → Usage. */
  usage: { method: 'GET', path: '/api/documents/usage' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>

export type LibraryRouteName = keyof typeof LIBRARY_ROUTES

/** A route's path with its `:params` filled (encoded). */
export function libraryPath(name: LibraryRouteName, params: Record<string, string | number> = {}): string {
  return fillPath(LIBRARY_ROUTES[name].path, params)
}

/** A path with its `:params` filled (encoded); a missing one throws, naming it. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (_match, key: string) => {
    const value = params[key]
    if (value === undefined) throw new Error(`${path}: missing :${key}`)
    return encodeURIComponent(String(value))
  })
}

export interface PersonRef {
  id: number
  name: string
}

export interface LabelRef {
  id: number
  name: string
  color: string
}

export interface LabelRow extends LabelRef {
  description: string | null
}

export interface FolderRow {
  id: number
  name: string
  type: FolderType
  parent_id: number | null
  updated_at: string
  owner: PersonRef | null
  permission: Permission
  /** Set in the trash view. */
  trashed_at?: string | null
}

export interface FileRow {
  id: number
  folder_id: number | null
  name: string
  extension: string
  mime: string
  size: number
  pages: number | null
  ocr_state: OcrState
  sub_type: string | null
  current_version: number
  updated_at: string
  owner: PersonRef
  /** The caller's own labels on this file. */
  labels: LabelRef[]
  permission: Permission
  /** Set in the trash view. */
  trashed_at?: string | null
  /** Set when a retention confirmation archived it: read-only (permission 'read') for everyone. */
  archived_at?: string
  /** Set in the recent view. */
  opened_at?: string
}

export interface Breadcrumb {
  id: number | null
  name: string
}

export interface Usage {
  /** Bytes of my files' versions (trash included: emptying it frees space). */
  used: number
  /** 0: unlimited. */
  quota: number
}

export interface LibraryListing {
  view: LibraryView
  /** The folder listed (null: the view's top). */
  folder: FolderRow | null
  /** From the view's top (id null) to the folder listed. */
  breadcrumbs: Breadcrumb[]
  folders: FolderRow[]
  files: FileRow[]
  /** Folders and files of this page are `offset`..; `total` counts both kinds in the folder. */
  total: number
  offset: number
  limit: number
  usage: Usage
  /** The viewer manages retention schedules (RETENTION_ADMINS): the rows offer theirs. */
  can_assign_retention: boolean
}

export type UploadResult =
  | { name: string; status: 'stored'; file: FileRow; version: number }
  | { name: string; status: 'refused'; reason: string; message: string }

export interface UploadAnswer {
  results: UploadResult[]
  usage: Usage
}

export interface VersionRow {
  number: number
  name: string
  mime: string
  size: number
  pages: number | null
  created_at: string
  created_by: PersonRef | null
  current: boolean
}

export interface TrashAnswer {
  files: number[]
  folders: number[]
  usage: Usage
}

export interface CommentRow {
  id: number
  text: string
  created_at: string
  author: PersonRef | null
}
