/**
 * The shapes the action engine works with. The engine is isomorphic and framework-free: it acts on a
 * form through `ActionForm` (the runtime's FormStore has this shape) and reaches the browser, the
 * server and the screen through `ActionHost` (built by runtime-web, faked by the tests).
 */
import type {
  ActionTypeRegistry,
  CaseMode,
  FieldTypeRegistry,
  FormConfig,
  FormItem,
  MissingField,
} from '@tramita/contract'
import type { Effect, Json, ScriptResult } from '@tramita/sandbox'

/** A modal as the form's overlays show it (runtime-web/src/form/overlays.ts). */
export type ModalRequest =
  { type: 'url'; url: string; title?: string } | { type: 'pages'; page: number | string; title?: string }

/** What the engine reads and changes of a form. */
export interface ActionForm {
  readonly config: FormConfig
  readonly registry: FieldTypeRegistry
  readonly mode: CaseMode
  readonly invisible: boolean
  /** Process and URL variables (code_process, id_process, ...): scripts and placeholders read them. */
  readonly vars: Record<string, Json>
  readonly overlays: {
    openModal(modal: ModalRequest, delay?: number): void
    closeModal(): void
    /** Lists a file being produced in the downloads panel until `work` settles. */
    track?<T>(name: string, work: Promise<T>): Promise<T>
  }
  item(name: string): { item: FormItem; kind: 'field' | 'element' } | undefined
  /** Every field's value now (a snapshot: the store replaces the object on each change). */
  valuesNow(): Readonly<Record<string, unknown>>
  setValue(name: string, value: unknown): void
  /** A value from text, coerced by the field's type as outside values are. */
  setText(name: string, text: string): void
  applyEffects(effects: readonly Effect[]): void
  /** Jumps to a page by its index in form.pages. */
  goToPage(pageIndex: number): void
  missing(): MissingField[]
  /** Whether a save or send may go ahead now (the required check and its exceptions, spec 000 §5). */
  mayProceed(action: 'save' | 'send'): boolean
  /** Re-runs the required-field check and tells the views (after every action, spec 000 §4). */
  recheckRequired(): void
  /** Resolves once the scripts scheduled so far (formulas, conditions, events) have run. */
  scriptsIdle(): Promise<void>
}

/** The progress bar over the form (show_progress_bar). */
export interface ProgressBar {
  message: string
  color: string
}

/**
 * The outside world, for handlers. Every method may reject; the engine then reports the failure and
 * stops the action (later steps do not run).
 */
export interface ActionHost {
  /** Runs a script in the browser's sandbox (QuickJS in a worker, with its time and memory limits). */
  runScript(source: string, vars: Record<string, Json>): Promise<ScriptResult>
  /**
   * A spec call (POST, form-data) with the form's context added (data, key_process, token); resolves
   * the answer's `data`, rejects with the server's message when the status is fail.
   */
  post(path: string, fields: Record<string, string | Blob>): Promise<unknown>
  /** Uploads a file for an image or file field; resolves the stored entry (the field's value). */
  upload(file: File, field: string): Promise<unknown>
  /** Reloads the case from the server (refresh). */
  reload(): void
  /** A generated document now belongs to the form (create_doc): the doc tab shows it. */
  documentCreated(path: string): void
  /** Saves or sends the form through the page's own save (its required check and exceptions included). */
  submit(action: 'save' | 'send', goToState: string): void
  openUrl(url: string, newTab: boolean): void
  /** A browser notification when the user allows them (asked once); nothing otherwise. */
  notify(title: string, message: string): void
  /**
   * A toast with a text key (core/i18n/locales/actions, the shared locale, or a plugin's own under
   * `<plugin>.`); a text that is no key, such as a server's message, is shown as it is.
   */
  toast(kind: 'success' | 'error', key: string): void
  /** Opens the camera dialog; the photo taken (JPEG 0.9, timestamped name) or null when closed. */
  takePhoto(): Promise<File | null>
  /** The PNG (quality 0.9) of a QR code or a barcode (a jsbarcode format) of `text`. */
  drawCode(kind: 'qr' | 'barcode', format: string, text: string, name: string): Promise<File>
  progress(bar: ProgressBar | null): void
  /** Shows that a barcode reader or RFID capture is waiting (null: it ended). */
  capturing(field: string | null): void
  /** Listens to the page's key presses until the returned function is called. */
  onKey(listener: (key: string) => void): () => void
  wait(ms: number): Promise<void>
  /**
   * Waits on the signed-in page's socket (spec 000 §7 events, e.g. a scan's scanforms_upload) for the
   * first message of `kase` whose data `match` accepts, and resolves that data. Rejects after
   * `timeoutMs` with an error naming the event (the socket may be down, the device silent: never a
   * hang), or with the signal's reason when it aborts. Call it before the request whose answer comes
   * this way (listening starts then), and abort it when that request fails.
   */
  socketEvent(
    kase: string,
    match: (data: unknown) => boolean,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<unknown>
  /** A failure for the console and the designer (never shown to the end user, spec 000 §8). */
  report(action: string, message: string): void
  /** The user's language (display texts of placeholders). */
  language(): string
}

/** Where an action was started from: a table button passes its row. */
export interface ActionContext {
  row?: Record<string, unknown>
}

/** What a handler gets besides its config. */
export interface StepContext {
  form: ActionForm
  host: ActionHost
  /** The action being run (for reports). */
  action: string
  row?: Record<string, unknown>
  /** A text with ${field}, ${row.column}, ${device.key} and ${task.key} placeholders filled. */
  fill(template: string): string
  /** Runs a script with the form's values, variables, `row`, `device` and `task` as variables. */
  script(source: string): Promise<ScriptResult>
  /** Runs another action of the form (start_action). */
  runAction(name: string, context?: ActionContext): Promise<void>
  /**
   * New `${device.key}` values (what a device step read: a scan's file, a print's job): the actions
   * naming a changed one re-run, except the one running this step (it would feed itself for ever).
   */
  setDevice(values: Record<string, Json>): Promise<void>
}

/** Runs one step of a type; its config already has the type's defaults. */
export interface ActionHandler {
  readonly type: string
  /** The plugin that brings the handler (absent for core handlers). */
  readonly plugin?: string
  run(config: Record<string, unknown>, step: StepContext): void | Promise<void>
}

export interface ActionHandlerRegistry {
  get(type: string): ActionHandler | undefined
  list(): ActionHandler[]
}

/** Placeholder scopes whose changes re-run the actions that name them. */
export type PlaceholderScope = 'device' | 'task'

export interface ActionEngineOptions {
  form: ActionForm
  host: ActionHost
  handlers: ActionHandlerRegistry
  /** Each step's config schema (defaults); the core types by default. */
  types?: ActionTypeRegistry
  /** The task placeholders at start (id, label, kind, status of the step being done). */
  task?: Record<string, Json>
}

export interface ActionEngine {
  /** Runs a named action: its condition, start page and steps; never rejects (failures are reported). */
  run(name: string, context?: ActionContext): Promise<void>
  /** The onevent actions, in the order they are defined (the form store calls this once, at start). */
  started(): Promise<void>
  /** New values for device or task placeholders; actions naming a changed one re-run. */
  setPlaceholders(scope: PlaceholderScope, values: Record<string, Json>): Promise<void>
  /** Which placeholders (`device.key`, `task.key`) each action's steps name. */
  readonly watched: ReadonlyMap<string, ReadonlySet<string>>
}
