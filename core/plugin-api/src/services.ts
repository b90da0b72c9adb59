/**
 * The services the core passes a plugin in its context (issue 19). A plugin reaches the core only
 * through these: no `core/server` import (ESLint refuses one). They are structural, framework-free
 * types, so a plugin's code type-checks anywhere and its unit tests can pass plain objects.
 *
 * Scoping is the core's job, not the plugin's: `db.table('folders')` is the plugin's own
 * `documents_folders`, storage keys sit under `plugins/<id>/`, audit actions, usage metrics, settings
 * and texts carry the plugin's id. Data services work from `boot` on; `register` only declares.
 */

import type { PluginCapabilities } from './capabilities.js'

export type Language = 'es' | 'en' | 'zh'
export const LANGUAGES: readonly Language[] = ['es', 'en', 'zh']

/** The caller of a route, built by the core from its `token` header; handlers get it, never a global. */
export interface PluginPrincipal {
  userId: number
  /** Role names: superuser, supervisor, teacher, student, or an institution's own. */
  roles: readonly string[]
  /** The same roles by id (shares name a role by id). */
  roleIds: readonly number[]
  areaIds: readonly number[]
  /** The administrator behind an impersonation session, if any. */
  impersonatorId: number | null
  language: Language
}

/**
 * Thrown anywhere in a plugin's handler: the core answers `{status: 'fail', message}` with this HTTP
 * status (400 by default) and the message translated when it is a text key of the plugin
 * (`documents.no_rename`) or sent as is otherwise. Anything else thrown is a 500 and logged.
 */
export class PluginFailure extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly extra?: Record<string, unknown>
  ) {
    super(message)
    this.name = 'PluginFailure'
  }
}

/** A file of a multipart request, already on the server's disk (never in memory), size-capped by the route. */
export interface PluginUpload {
  /** The client's file name, cleaned of paths and control characters. */
  name: string
  /** Lower-case, without the dot ('' when none). */
  extension: string
  size: number
  /** The type the client declared; sniff the bytes (storage.putUpload does) before trusting it. */
  clientType: string | null
  /** Where the bytes are, until the request ends (the core deletes it). */
  tmpPath: string
}

export interface PluginRequest {
  /** Null only on `auth: 'public'` routes. */
  principal: PluginPrincipal | null
  params: Readonly<Record<string, string>>
  /** A form field or query value (the call contract's `case` already handled). */
  field(name: string): string | undefined
  /** A JSON-valued field parsed with the core's depth and size limits; undefined when absent. */
  json<T = unknown>(name: string): T | undefined
  file(name: string): PluginUpload | undefined
  files(name: string): PluginUpload[]
  header(name: string): string | undefined
  ip: string
  /** The language the caller reads: the principal's, else the request's. */
  language: Language
}

/** A route's answer that is a file rather than `{status:'done', data}`. */
export interface PluginFileAnswer {
  kind: 'file'
  /** A storage key of this plugin, or a stream the core pipes (a zip being written, say). */
  source: { key: string } | { stream: AsyncIterable<Uint8Array> }
  name: string
  mime: string
  /** Shown in the browser (viewers) or saved as an attachment. */
  disposition: 'inline' | 'attachment'
  size?: number
  /**
   * Seconds any cache may keep it: for a file the same for everyone (a public template). Without it a
   * file is `private, no-cache`, as a person's files are.
   */
  publicMaxAge?: number
}

export type PluginAuth = 'signed-in' | 'public' | { roles: readonly string[] }

export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Under `ctx.namespace` (`/api/documents/...`) or a spec path (`/data/...`, `/inside/...`, `/getPublicFile/:token`). */
  path: string
  auth: PluginAuth
  /** Counted per client address or per user across app nodes; over it the caller gets a 429 with a reason. */
  rateLimit?: { per: 'ip' | 'user'; max: number; windowSeconds: number }
  /** Largest multipart body accepted, in bytes (default: the core's upload limit). */
  maxBytes?: number
  /** The value is sent as `{status: 'done', data: value}`, or as a file for a PluginFileAnswer. */
  handle(req: PluginRequest): Promise<unknown>
}

/**
 * The slice of the query builder a plugin gets (the core passes Lucid's, which has this shape). Every
 * table name given to `db.table` or to a join is the plugin's own, without its prefix.
 */
export interface PluginQuery<Row = any> extends PromiseLike<Row[]> {
  select(...columns: string[]): PluginQuery<Row>
  where(column: string, value: unknown): PluginQuery<Row>
  where(column: string, op: string, value: unknown): PluginQuery<Row>
  where(callback: (query: PluginQuery<Row>) => void): PluginQuery<Row>
  orWhere(column: string, value: unknown): PluginQuery<Row>
  orWhere(column: string, op: string, value: unknown): PluginQuery<Row>
  orWhere(callback: (query: PluginQuery<Row>) => void): PluginQuery<Row>
  whereIn(column: string, values: readonly unknown[] | PluginQuery): PluginQuery<Row>
  whereNotIn(column: string, values: readonly unknown[] | PluginQuery): PluginQuery<Row>
  whereNull(column: string): PluginQuery<Row>
  whereNotNull(column: string): PluginQuery<Row>
  whereExists(callback: (query: PluginQuery) => void): PluginQuery<Row>
  /** In a `whereExists` or `whereIn` sub-query: which of this plugin's tables it reads. */
  from(name: string): PluginQuery<Row>
  /** A raw condition with `?` bindings, over this plugin's tables only (reviewed: the core cannot check SQL). */
  whereRaw(sql: string, bindings?: readonly unknown[]): PluginQuery<Row>
  orderBy(column: string, direction?: 'asc' | 'desc'): PluginQuery<Row>
  groupBy(...columns: string[]): PluginQuery<Row>
  limit(count: number): PluginQuery<Row>
  offset(count: number): PluginQuery<Row>
  count(column: string, alias?: string): PluginQuery<any>
  sum(column: string, alias?: string): PluginQuery<any>
  max(column: string, alias?: string): PluginQuery<any>
  /** Locks the rows read until the transaction ends (MariaDB; SQLite's writer lock covers it). */
  forUpdate(): PluginQuery<Row>
  first(): Promise<Row | null>
  /** Returns the new row ids (one per row inserted; on MariaDB only the first). */
  insert(values: Partial<Row> | Partial<Row>[]): Promise<number[]>
  update(values: Partial<Row> | Record<string, unknown>): Promise<number>
  increment(column: string, amount?: number): Promise<number>
  delete(): Promise<number>
}

export interface PluginDb {
  /** `table('folders')` is this plugin's `documents_folders`; a name with another prefix throws. */
  table<Row = any>(name: string): PluginQuery<Row>
  /** Runs `work` in one transaction on one connection; its `db` is that transaction's. */
  transaction<T>(work: (db: PluginDb) => Promise<T>): Promise<T>
  /** The engine, for what differs (full-text search): SQLite on the embedded default, MariaDB else. */
  dialect: 'sqlite' | 'mysql'
  /**
   * Raw SQL over this plugin's tables (full text, bulk statements), with `?` bindings; the plugin's
   * table names are written in full (`documents_search`). Rows are returned as plain objects.
   */
  raw<Row = any>(sql: string, bindings?: readonly unknown[]): Promise<Row[]>
}

/**
 * True when a write was refused by a unique key (MariaDB's ER_DUP_ENTRY, SQLite's unique or primary-key
 * constraint): the row a concurrent request wrote first, which a route answers as its own clear failure.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    typeof code === 'string' &&
    (code === 'ER_DUP_ENTRY' || code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  )
}

export interface StoredObject {
  key: string
  size: number
  /** Hex SHA-256 of the bytes. */
  sha256: string
  mime: string
}

export interface UploadRefusal {
  /** A text key of the core's upload messages (`uploads.blocked_extension`) and its reason. */
  reason: string
  /** The reason in the language `putUpload` was given. */
  message: string
  /** 503 when the antivirus could not answer (try again later); 400 otherwise. */
  status?: number
}

export interface PluginStorage {
  /**
   * Checks an upload as the core checks form files (blocked extensions, content sniffed against the
   * name, archives and PDFs inspected under caps, the antivirus when configured), then streams it to
   * storage (local disk or S3) under a key the core makes. A refusal is returned, not thrown, its
   * message in `language` (Spanish by default).
   */
  putUpload(upload: PluginUpload, language?: Language): Promise<StoredObject | UploadRefusal>
  /** Streams bytes the plugin made (a merged PDF, a copy) to a new key with this extension. */
  put(bytes: Uint8Array | AsyncIterable<Uint8Array>, extension: string): Promise<StoredObject>
  /** The object's bytes, streamed; `range` is inclusive, as HTTP's. */
  read(key: string, range?: { start: number; end: number }): Promise<AsyncIterable<Uint8Array>>
  /** A local file holding the object (a temporary copy when storage is remote), for tools that need a path. */
  withLocalFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T>
  /** Deleting a missing key is not an error (a job may run twice). */
  delete(key: string): Promise<void>
}

export interface PersonSummary {
  id: number
  name: string
  username: string
  email: string | null
  roles: string[]
  roleIds: number[]
  areaIds: number[]
  language: Language
}

/** A read-only directory of users, areas and roles: plugins keep ids, never join the core's tables. */
export interface PluginPeople {
  byIds(ids: readonly number[]): Promise<Map<number, PersonSummary>>
  /** Enabled users whose name, username or e-mail contains `text` (case- and accent-insensitive). */
  search(text: string, limit?: number): Promise<PersonSummary[]>
  areas(): Promise<{ id: number; name: string; color: string | null }[]>
  roles(): Promise<{ id: number; name: string }[]>
}

export interface PluginAudit {
  /** Records `<plugin>.<action>` by the principal (or an anonymous visitor) on a subject. */
  record(
    who: PluginPrincipal | { ip: string } | null,
    action: string,
    subject?: { type: string; id: string | number },
    data?: Record<string, unknown>
  ): Promise<void>
}

export interface PluginMail {
  /**
   * Queues a mail (sent by a job, retried, once in effect). `subject` and `text` are the plugin's text
   * keys, filled with `params` in the recipient's language; `link` is added as the mail's button.
   */
  send(
    to: { userId: number } | { email: string; language: Language },
    message: { subject: string; text: string; params?: Record<string, string | number>; link?: string }
  ): Promise<void>
}

export interface PluginJobs {
  /** Enqueue one of the registered jobs (any plugin's or the core's); a `jobId` makes it once-only. */
  enqueue(name: string, payload: unknown, opts?: { jobId?: string; delayMs?: number }): Promise<{ id: string }>
  /**
   * Runs one of this plugin's jobs on a schedule, once per period across all nodes (the job id is the
   * period): declare it in `register`.
   */
  every(period: 'hourly' | 'daily', jobName: string): void
}

export interface PluginSockets {
  /** Sends `{case, data}` on /ws to everyone, one user's connections or one socket, on any app node. */
  publish(
    to: { all: true } | { userId: number } | { socketId: string },
    message: { case: string; data: unknown }
  ): Promise<void>
}

/**
 * This plugin's settings as plain values: the definition's declared defaults under what was saved
 * (by an administrator on the settings screen, or by `set`). `set` checks the patch against the
 * declaration (a key not declared or a value out of bounds throws) and writes the change to the audit log.
 */
export interface PluginSettings<S extends Record<string, unknown> = Record<string, unknown>> {
  get(): Promise<S>
  set(patch: Partial<S>, by: PluginPrincipal): Promise<S>
}

export interface PluginUsage {
  /**
   * Counts a billable use (`documents.ocr_page`) once: a second call with the same `key` (say
   * `doc:12:v3:p7`) adds nothing, so a job that runs twice bills once.
   */
  record(metric: string, key: string, amount?: number, scope?: { userId?: number }): Promise<boolean>
  /** The total of a metric over a period, for invoices and tests. */
  total(metric: string, since?: Date): Promise<number>
}

export interface PluginTexts {
  /** A text of this plugin (`documents.no_rename`) or of the core's shared texts, in a language. */
  t(language: Language, key: string, params?: Record<string, string | number>): string
}

export interface PluginTokens {
  /** 256 random bits, URL-safe; store only the hash. */
  create(): { token: string; hash: string }
  hash(token: string): string
  /** Hashes a password for storage (the core's algorithm) and checks one in constant time. */
  hashPassword(password: string): Promise<string>
  verifyPassword(hash: string, password: string): Promise<boolean>
}

export interface PluginHttp {
  /** Declares a route (in `register` or `routes`); the core mounts it with auth, limits and the envelope. */
  route(route: PluginRoute): void
  /** The web app's absolute address for a path (`/static/public/abc`), for links in mails. */
  url(path: string): string
}

/** What a link module reads of the request: its fields as sent, for the plugin to check. */
export interface PluginLinkInput {
  /** A text field (a number or boolean as its text); undefined for a list, an object or nothing. */
  field(name: string): string | undefined
  /** A JSON field: a JSON text (form data) parsed, or the value of a JSON body; undefined when absent. */
  json<T = unknown>(name: string): T | undefined
  language: Language
}

/** A link module's answer: rows of plain values, as `select_forms` answers them. */
export type PluginLinkRows = Record<string, string | number | boolean | null>[]

export interface PluginForms {
  /**
   * Answers `POST /inside/forms/links_modules` (spec 000 §7) for a `type` of this plugin's: the rows a
   * form's lookup or autocomplete reads (the documents plugin's `select_indexing`), for the signed-in
   * caller. Declared in `register`; a type is one plugin's, and `select_forms` is the core's.
   */
  linkModule(type: string, answer: (input: PluginLinkInput, who: PluginPrincipal) => Promise<PluginLinkRows>): void
}

/** A form's file (an upload or a generated document) as a plugin reads it. */
export interface PluginCaseFile {
  /** `/data/files/<uuid>.<ext>`, as the upload and create_doc routes answered it. */
  path: string
  name: string
  mime: string
  size: number
  read(): Promise<AsyncIterable<Uint8Array>>
}

export interface PluginCaseFiles {
  /**
   * A form's file the principal may read, as the core's file route decides (its uploader, or whoever
   * may see its case); null when there is no such file or they may not: the same answer, so a path
   * reveals nothing. `who` must be the principal the core handed the plugin for this request.
   */
  open(path: string, who: PluginPrincipal): Promise<PluginCaseFile | null>
  /**
   * Stores an upload as `owner`'s file for a field of a form (`form` is its key: a scan arriving into
   * a form), checked as the form upload route checks a file for that field: it stays theirs until a
   * save of that form's case attaches it, as an upload does. Answers the spec's uploaded-file entry, or
   * the refusal (its message in `language`; also when the form or field is unknown or takes no files).
   */
  stage(
    upload: PluginUpload,
    owner: { userId: number; ip: string },
    target: { form: string; field: string },
    language?: Language
  ): Promise<PluginStagedFile | UploadRefusal>
}

/** A form file's client entry (spec 000 §3 "Uploaded file entry"). */
export interface PluginStagedFile {
  ext: string
  ip: string
  path: string
  real_name: string
  status: 'good'
}

/**
 * A connection a program of the plugin holds to the server (a device agent on another computer): a
 * WebSocket at `path`, authenticated by a token the program sends in its `token` header. It reaches
 * one app node; `send` and `disconnect` reach it from any node (through Redis when configured).
 */
export interface PluginPeerEndpoint {
  /** Under the plugin's namespace: `/api/devices/agent/socket`. */
  path: string
  /**
   * Decides on a connection before it opens: its peer id (unique to this connection, so a late close
   * of an older one is told apart), or a refusal answered as that HTTP status with its reason.
   * `header` reads the upgrade request's other headers (a program's version or instance).
   */
  admit(
    token: string,
    ip: string,
    header: (name: string) => string | undefined
  ): Promise<{ peerId: string } | { refuse: 401 | 403 | 409 | 426 | 503; reason: string }>
  /** The connection is open: messages may be sent to the peer from now on. */
  opened?(peerId: string): Promise<void>
  /** A JSON message from the peer (anything else closes the connection). Throwing closes it too. */
  received(peerId: string, message: unknown): Promise<void>
  /** The connection ended (closed, dropped, or silent past the keep-alive): called once per peer id. */
  closed?(peerId: string): Promise<void>
}

export interface PluginPeers {
  /** Declares an endpoint (in `register`); the core mounts it while the plugin is enabled. */
  endpoint(endpoint: PluginPeerEndpoint): void
  /** Sends a JSON message to a peer on whichever node holds it; nothing happens when none does. */
  send(peerId: string, message: unknown): Promise<void>
  /** Closes a peer's connection with a WebSocket close code (4000–4999) and reason, on any node. */
  disconnect(peerId: string, code: number, reason: string): Promise<void>
}

export interface PluginServices {
  http: PluginHttp
  peers: PluginPeers
  capabilities: PluginCapabilities
  forms: PluginForms
  caseFiles: PluginCaseFiles
  db: PluginDb
  storage: PluginStorage
  people: PluginPeople
  audit: PluginAudit
  mail: PluginMail
  jobs: PluginJobs
  sockets: PluginSockets
  settings: PluginSettings
  usage: PluginUsage
  texts: PluginTexts
  tokens: PluginTokens
}

/** Does the principal hold one of these roles? The superuser holds every role. */
export function hasRole(principal: Pick<PluginPrincipal, 'roles'>, roles: readonly string[]): boolean {
  return principal.roles.includes('superuser') || roles.some((role) => principal.roles.includes(role))
}
