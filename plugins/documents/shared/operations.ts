/**
 * The operations area's calls (spec 001 §7): paths, limits and answers, shared by the server's routes
 * and the web's action handlers. Isomorphic: no Node, no DOM.
 *
 * Every call is a POST of form fields (the spec's dispatcher, `case` = POST) by a signed-in user. The
 * spec's `creator_id` / `id_creator` (1 from old clients) is accepted and ignored: the creator of what a
 * call makes is always the signed-in user.
 */

const BASE = '/inside/forms/create/search_endpoint'

export const OPERATIONS_PATHS = {
  /** rutes_merge (JSON list of file ids), name_doc, type_merge, save_doc, folder_id, temporal, creator_id. */
  merge: `${BASE}/merge_doc`,
  /** id_doc, name_doc. */
  renameDoc: `${BASE}/rename_doc`,
  /** id_folder, name_folder. */
  renameFolder: `${BASE}/rename_folder`,
  /** type (copy | cut), folder_dest, id_doc (file ids), id_folder (folder ids), id_creator. */
  copy: `${BASE}/copy_doc`,
  /** id_doc. */
  infoDoc: `${BASE}/info_doc`,
  /** id_folder. */
  infoFolder: `${BASE}/info_folder`,
  /** type_search, id_folder, jsonwhere, subcarpetas, path, id_creator. */
  search: `${BASE}/search_doc_folder`,
} as const

/** The spec's codes (001 §8): failed copy, cut or merge; failed rename; failed search or info; a document filed. */
export const OPERATION_CODES = {
  copy: 'no_copy_or_cut',
  rename: 'no_rename',
  search: 'no_search',
  filed: 'doc_subido_success',
} as const

export const OPERATION_LIMITS = {
  /** PDFs joined in one merge, and their bytes together. */
  mergeFiles: 50,
  mergeBytes: 100 * 1024 ** 2,
  /** Files in one zip, and their bytes together (the zip is streamed, never held). */
  zipFiles: 1000,
  zipBytes: 2 * 1024 ** 3,
  /** Items one copy or cut may touch (a folder counts with everything under it). */
  copyItems: 1000,
  /** Results of one search. */
  searchResults: 200,
  /** Characters of a search text, and its words. */
  searchText: 200,
  searchTerms: 16,
  /** Filters of a jsonwhere's metadata. */
  metadataFilters: 10,
} as const

export type MergeType = 'merge_docs' | 'zip_docs'
export type CopyType = 'copy' | 'cut'
/** What search_doc_folder looks for. */
export type SearchType = 'doc' | 'folder' | 'all'

/**
 * search_doc_folder's `jsonwhere`: the filters, all optional and combined with AND. Never SQL: each key
 * is checked and turned into a bound condition by the server; an unknown key is refused.
 */
export interface JsonWhere {
  /** Words searched in names, labels, metadata and page text (accents and case ignored; prefixes match). */
  text?: string
  /** Lower-case extensions without the dot (`pdf`, `docx`). */
  extension?: string | string[]
  /** Label names, every one required. */
  labels?: string[]
  /** Indexed metadata equal to these values, by column name (documents_file_metadata). */
  metadata?: Record<string, string | number | boolean>
  /** Last modified from / to (ISO dates, inclusive). */
  modified_from?: string
  modified_to?: string
}

export interface OperationPerson {
  id: number
  name: string
}

export interface DocumentSummary {
  id: number
  name: string
  extension: string
  mime: string
  size: number
  pages: number | null
  folder_id: number | null
  owner_id: number
  updated_at: string
  /** Archived by a retention confirmation (read-only). */
  archived: boolean
}

export interface FolderSummary {
  id: number
  name: string
  parent_id: number | null
  type: string
  creator_id: number | null
  updated_at: string
}

export interface SearchAnswer {
  documents: DocumentSummary[]
  folders: FolderSummary[]
}

export interface DocumentInfo extends DocumentSummary {
  mb: number
  ocr_state: string
  sub_type: string | null
  current_version: number
  versions: number
  owner: OperationPerson | null
  created_at: string
  /** Folder names from the owner's root down to the file's folder. */
  path: string[]
  labels: { name: string; color: string }[]
  shares: number
  permission: 'all' | 'read'
}

export interface FolderInfo {
  id: number
  name: string
  type: string
  parent_id: number | null
  path: string[]
  owner: OperationPerson | null
  created_at: string
  updated_at: string
  /** Everything under the folder, at any depth, outside the trash. */
  files: number
  folders: number
  size: number
  mb: number
  pages: number
  shares: number
  permission: 'all' | 'read'
}

/** What copy_doc answers: the new (copy) or moved (cut) items' ids. */
export interface CopyAnswer {
  type: CopyType
  files: number[]
  folders: number[]
}

/** What merge_doc answers when the result is filed into a folder (otherwise the file itself is sent). */
export interface FiledAnswer {
  code: typeof OPERATION_CODES.filed
  file: DocumentSummary
}
