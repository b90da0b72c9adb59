/**
 * Services plugins offer each other by name (issue 21: a scan OCR'd by the documents plugin's engine),
 * since a plugin never imports another. The provider offers one in `register`; a user asks for it from
 * `boot` on and gets undefined while the provider is disabled or failed, so it must cope without it.
 * The shapes of the services offered live here, beside the name they are offered under.
 */

export interface PluginCapabilities {
  /** Offers `service` as `<this plugin>.<name>` (in `register`). */
  provide<T extends object>(name: string, service: T): void
  /** Another plugin's offer by its full name (`documents.ocr`), or undefined when it is not there now. */
  use<T extends object>(fullName: string): T | undefined
}

/** `documents.ocr`: a file made searchable by the documents plugin's OCR engine, each page billed once. */
export const OCR_CAPABILITY = 'documents.ocr'

export interface OcrCapability {
  /**
   * OCRs a PDF or image (JPEG, PNG, TIFF) at `input` into a searchable PDF at `output`, in the
   * institution's OCR languages, within the engine's time limits. Each page OCR'd is billed once under
   * `billingKey` + `:p<n>` (a second call with the same key bills nothing). Answers each page's state
   * (ocr: text found; scan: none) and the text, or why it could not: the engine is not installed on this
   * node, the file cannot be read, or the engine failed on it.
   */
  searchablePdf(
    input: { path: string; mime: string },
    output: string,
    opts: { billingKey: string; userId?: number; signal?: AbortSignal }
  ): Promise<
    { pages: ('ocr' | 'scan' | 'skip')[]; text: string } | { error: 'engine_missing' | 'unreadable' | 'failed' }
  >
}

/**
 * `devices.files`: the files under a path on a device agent's computer (issue 21: a synchronized folder
 * of the documents plugin). Every call names the agent and the root (the folder's path on the agent);
 * the agent serves nothing outside that root (`..`, absolute paths and symlinks are refused). A call
 * to an agent that is off or does not answer in time ends as 'offline'.
 */
export const AGENT_FILES_CAPABILITY = 'devices.files'

/** Why an agent's file call did not succeed (the spec's texts: 001 §8). */
export type AgentFilesError =
  | 'not_found'
  | 'not_directory'
  | 'no_permission'
  | 'offline'
  /** The relative path leaves the root (.., absolute, a symlink) or the root is not the caller's. */
  | 'outside_root'
  | 'too_large'
  | 'failed'

/** A regular file under a root: its path relative to the root with `/`, its size and modification time. */
export interface AgentFileEntry {
  path: string
  size: number
  mtimeMs: number
}

export interface AgentFilesCapability {
  /** The agents `who` may bind a folder to (administrators: every agent not revoked; others: none). */
  agents(who: { roles: readonly string[] }): Promise<{ id: number; name: string; online: boolean }[]>
  /** Is `root` an existing directory the agent may read and write? */
  check(agentId: number, root: string): Promise<'ok' | AgentFilesError>
  /** Every regular file under `root`, however deep (symlinks and dotfiles skipped). */
  list(agentId: number, root: string): Promise<{ files: AgentFileEntry[] } | { error: AgentFilesError }>
  /** Copies `root/relPath` to the local file `dest` (at most `maxBytes`). */
  read(
    agentId: number,
    root: string,
    relPath: string,
    dest: string,
    maxBytes: number
  ): Promise<AgentFileEntry | { error: AgentFilesError }>
  /** Writes the local file `source` to `root/relPath` (its folders made); answers the file as written. */
  write(
    agentId: number,
    root: string,
    relPath: string,
    source: string
  ): Promise<AgentFileEntry | { error: AgentFilesError }>
  /** Removes `root/relPath`; a file already gone is not an error. */
  remove(agentId: number, root: string, relPath: string): Promise<'ok' | { error: AgentFilesError }>
  /**
   * The roots an agent is to watch, asked at each connection of the agent and after `rewatch`: the user
   * answers them (its synchronized folders on that agent).
   */
  watchedRoots(provider: (agentId: number) => Promise<string[]>): void
  /** Tells the agent to ask `watchedRoots` again (a folder was bound or unbound). */
  rewatch(agentId: number): Promise<void>
  /**
   * Hears that something changed under a root (the agent saw it, debounced) or that the agent
   * (re)connected, when anything may have changed: `root` is null then.
   */
  onChange(listener: (agentId: number, root: string | null) => void): void
}
